// Preloaded into one app instance (NODE_OPTIONS=--require) to give it a clock SOAK_CLOCK_OFFSET_MS
// ahead of (or behind) the others: Date.now() and `new Date()` both move, so token expiry, rate-limit
// windows and JWT iat/exp are computed on the skewed clock. Timers and performance.now() are left
// alone (they measure intervals, not wall time).
const offset = Number(process.env.SOAK_CLOCK_OFFSET_MS || 0)
if (offset) {
  const RealDate = Date
  const realNow = RealDate.now
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset)
      else super(...args)
    }
    static now() {
      return realNow() + offset
    }
  }
  globalThis.Date = SkewedDate
}
