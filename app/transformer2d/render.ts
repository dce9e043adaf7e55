import type { FloatTensor } from '@/lib/transformer2d'

/** RGBA pixels of a continuous sample (1, C, H, W): channels 0–2 as red, green, blue, each scaled to its own range. */
export function sampleToImage(sample: FloatTensor): ImageData {
  const [, channels, height, width] = sample.dims
  const image = new ImageData(width, height)
  const plane = height * width
  for (let c = 0; c < 3; c++) {
    const source = sample.data.subarray((c % channels) * plane, (c % channels + 1) * plane)
    let min = Infinity
    let max = -Infinity
    for (const v of source) {
      min = Math.min(min, v)
      max = Math.max(max, v)
    }
    for (let i = 0; i < plane; i++) image.data[4 * i + c] = Math.round((255 * (source[i] - min)) / (max - min || 1))
  }
  for (let i = 0; i < plane; i++) image.data[4 * i + 3] = 255
  return image
}

/** RGBA pixels of a discrete sample (1, K, L) as a class map: each latent pixel coloured by its most likely class. */
export function classMap(sample: FloatTensor, side: number): ImageData {
  const [, classes, pixels] = sample.dims
  const image = new ImageData(side, side)
  for (let p = 0; p < pixels; p++) {
    let best = 0
    for (let k = 1; k < classes; k++) if (sample.data[k * pixels + p] > sample.data[best * pixels + p]) best = k
    const hue = (best * 360) / classes
    const [r, g, b] = hslToRgb(hue, 0.65, 0.55)
    image.data.set([r, g, b, 255], 4 * p)
  }
  return image
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => {
    const k = (n + h / 30) % 12
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))))
  }
  return [f(0), f(8), f(4)]
}
