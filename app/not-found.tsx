import Link from 'next/link'

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold">404: not found</h1>
      <p className="mt-2 text-slate-600">This page does not exist, or you do not have access to it.</p>
      <Link className="btn-primary mt-6" href="/">Go home</Link>
    </div>
  )
}
