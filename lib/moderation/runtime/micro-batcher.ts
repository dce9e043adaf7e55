/**
 * Collects items submitted by concurrent requests and runs them through one model call.
 *
 * A batch starts when `maxBatchSize` items are waiting or `maxWaitMs` after the first one
 * arrived, whichever comes first. One batch runs at a time; whatever queued during it goes
 * out as soon as it finishes, so under load batches fill up without anyone waiting on the
 * timer. Each item settles on its own, so a request whose items span two batches still gets
 * its answers in order.
 */

export interface MicroBatchOptions {
  maxBatchSize: number
  maxWaitMs: number
}

interface Pending<I, O> {
  item: I
  resolve: (value: O) => void
  reject: (error: unknown) => void
}

export class MicroBatcher<I, O> {
  private readonly queue: Pending<I, O>[] = []
  /** Cancels the scheduled start of the next batch, if one is scheduled. */
  private cancelScheduledStart: (() => void) | null = null
  private running = false

  constructor(
    private readonly runBatch: (items: I[]) => Promise<O[]>,
    private readonly options: MicroBatchOptions,
  ) {
    if (options.maxBatchSize < 1) throw new Error('maxBatchSize must be at least 1')
  }

  submit(items: I[]): Promise<O[]> {
    const results = items.map(
      (item) => new Promise<O>((resolve, reject) => this.queue.push({ item, resolve, reject })),
    )
    this.schedule()
    return Promise.all(results)
  }

  private schedule(): void {
    if (this.running || this.queue.length === 0) return
    if (this.queue.length >= this.options.maxBatchSize) {
      this.cancelStart()
      void this.flush()
    } else if (this.cancelScheduledStart === null) {
      const start = () => {
        this.cancelScheduledStart = null
        void this.flush()
      }
      // A zero wait still lets everything submitted in the same turn of the event loop join.
      if (this.options.maxWaitMs > 0) {
        const timer = setTimeout(start, this.options.maxWaitMs)
        this.cancelScheduledStart = () => clearTimeout(timer)
      } else {
        const immediate = setImmediate(start)
        this.cancelScheduledStart = () => clearImmediate(immediate)
      }
    }
  }

  private cancelStart(): void {
    this.cancelScheduledStart?.()
    this.cancelScheduledStart = null
  }

  private async flush(): Promise<void> {
    if (this.running || this.queue.length === 0) return
    this.running = true
    const batch = this.queue.splice(0, this.options.maxBatchSize)
    try {
      const outputs = await this.runBatch(batch.map((p) => p.item))
      if (outputs.length !== batch.length) throw new Error(`batch returned ${outputs.length} results for ${batch.length} items`)
      batch.forEach((p, i) => p.resolve(outputs[i]))
    } catch (error) {
      for (const p of batch) p.reject(error)
    } finally {
      this.running = false
    }
    // Items that arrived while the model ran have waited long enough already.
    if (this.queue.length > 0) {
      this.cancelStart()
      void this.flush()
    }
  }
}
