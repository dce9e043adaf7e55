// Small line icons for compact buttons. Always aria-hidden: the button or link they sit in carries
// the accessible name (an aria-label, or text beside them).
type IconProps = { className?: string }

const common = { viewBox: '0 0 20 20', fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const

export function DownloadIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M10 3v10m0 0-4-4m4 4 4-4M4 16h12" />
    </svg>
  )
}

export function TrashIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M4 6h12M8 6V4h4v2m-6 0 .7 10h6.6L14 6M9 9v4m2-4v4" />
    </svg>
  )
}

export function PencilIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="m13.5 3.5 3 3L7 16H4v-3l9.5-9.5Z" />
    </svg>
  )
}
