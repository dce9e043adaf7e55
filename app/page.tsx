import Link from 'next/link'
import { listRepos } from '@/lib/hub/repos'
import { sessionCaller } from '@/lib/auth/caller'
import { RepoList } from '@/components/RepoList'

export const dynamic = 'force-dynamic'
// The site's own name, without the template the other pages get.
export const metadata = { title: { absolute: 'ModHub · open model hub for responsible AI' } }

export default async function HomePage() {
  const caller = await sessionCaller()
  const [models, datasets, spaces] = await Promise.all(
    (['model', 'dataset', 'space'] as const).map((type) => listRepos(caller, { type, limit: 6 })),
  )
  return (
    <div className="space-y-10">
      <section className="rounded-xl bg-gradient-to-br from-brand-600 to-indigo-700 px-8 py-10 text-on-accent">
        <h1 className="text-3xl font-semibold tracking-tight">The open model hub for responsible AI</h1>
        <p className="mt-3 max-w-2xl text-on-accent/90">
          Share models, datasets and spaces; sign apps in with OAuth 2.0 and OpenID Connect; check text with the moderation API;
          run models on the server or right in your browser.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href="/models" className="btn bg-white text-brand-700 hover:bg-brand-50">Browse models</Link>
          <Link href="/rai/v1/raimoderationmodels/docs" className="btn border border-white/40 text-on-accent hover:bg-white/10">Moderation API</Link>
        </div>
      </section>
      {[
        ['Models', '/models', models],
        ['Datasets', '/datasets', datasets],
        ['Spaces', '/spaces', spaces],
      ].map(([title, href, repos]) => (
        <section key={title as string} aria-labelledby={`h-${title}`}>
          <div className="mb-3 flex items-baseline justify-between">
            <h2 id={`h-${title}`} className="text-lg font-semibold">{title as string}</h2>
            <Link className="link text-sm" href={href as string}>See all</Link>
          </div>
          <RepoList repos={repos as Awaited<ReturnType<typeof listRepos>>} empty="Nothing here yet." />
        </section>
      ))}
    </div>
  )
}
