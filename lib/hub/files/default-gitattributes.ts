// The .gitattributes the Hub puts in a new repo's first commit: the file types it keeps in LFS.
// preupload reads it to route such files to LFS, and a clone made with git gets the same routing.
import type { RepoType } from '@/lib/hub/names'

const LFS = 'filter=lfs diff=lfs merge=lfs -text'

const MODEL_PATTERNS = [
  '*.7z', '*.arrow', '*.bin', '*.bz2', '*.ckpt', '*.ftz', '*.gz', '*.h5', '*.joblib', '*.lfs.*', '*.mlmodel', '*.model',
  '*.msgpack', '*.npy', '*.npz', '*.onnx', '*.ot', '*.parquet', '*.pb', '*.pickle', '*.pkl', '*.pt', '*.pth', '*.rar',
  '*.safetensors', 'saved_model/**/*', '*.tar.*', '*.tar', '*.tflite', '*.tgz', '*.wasm', '*.xz', '*.zip', '*.zst', '*tfevents*',
]

/** A dataset's also keeps compressed shards and media in LFS, in sections as the Hub writes them. */
const DATASET_SECTIONS: [heading: string, patterns: string[]][] = [
  ['', ['*.lz4', '*.mds']],
  ['Audio files - uncompressed', ['*.pcm', '*.sam', '*.raw']],
  ['Audio files - compressed', ['*.aac', '*.flac', '*.mp3', '*.ogg', '*.wav']],
  ['Image files - uncompressed', ['*.bmp', '*.gif', '*.png', '*.tiff']],
  ['Image files - compressed', ['*.jpg', '*.jpeg', '*.webp']],
  ['Video files - compressed', ['*.mp4', '*.webm']],
]

export function defaultGitAttributes(type: RepoType): string {
  const lines = MODEL_PATTERNS.map((pattern) => `${pattern} ${LFS}`)
  if (type === 'dataset') {
    for (const [heading, patterns] of DATASET_SECTIONS) {
      if (heading) lines.push(`# ${heading}`)
      lines.push(...patterns.map((pattern) => `${pattern} ${LFS}`))
    }
  }
  return `${lines.join('\n')}\n`
}
