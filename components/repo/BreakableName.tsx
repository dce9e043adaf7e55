// A file or folder name that wraps between its words: a break opportunity after `_`, `-` and `/`
// and before `.`, so a narrow column shows "diffusion_pytorch_model" / ".safetensors", never a
// letter per line. Give its container `[overflow-wrap:anywhere]` so that a part still longer than
// the line breaks too, as a last resort (the browser uses those breaks only where no other fits).
import { Fragment } from 'react'

const SEPARATED = /(?<=[_\-/])|(?=\.)/

export function BreakableName({ name }: { name: string }) {
  const parts = name.split(SEPARATED)
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  )
}
