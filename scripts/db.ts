#!/usr/bin/env -S npx tsx
// Database tooling that works offline.
//
//   tsx scripts/db.ts generate          render the PostgreSQL schema and generate both Prisma clients
//   tsx scripts/db.ts deploy            apply pending migrations to DATABASE_URL (like `prisma migrate deploy`)
//   tsx scripts/db.ts new <name>        create a migration for DATABASE_URL's provider from the schema
//   tsx scripts/db.ts diff [provider]   print the SQL that creates the whole schema
//
// Why not the Prisma CLI: its migrate commands spawn the native schema engine, which has to be
// downloaded and cannot be here. The same engine ships as wasm (@prisma/schema-engine-wasm);
// this script drives it through the Prisma driver adapters, and writes and reads the standard
// prisma/migrations layout (migration.sql + migration_lock.toml + the _prisma_migrations table), so
// `prisma migrate deploy` on a machine with the native engine reads the same history.
//
// One schema (prisma/schema.prisma, SQLite) is the source; the PostgreSQL variant differs only in
// its provider line and client output. Prisma migrations are SQL and pin one provider each, so each
// provider keeps its migration history: prisma/migrations (SQLite), prisma/postgresql/migrations.
import './load-env'
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils'
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils'

type Provider = 'sqlite' | 'postgresql'

const root = path.resolve(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const sourceSchema = path.join(root, 'prisma/schema.prisma')

/** Deletes an SQLite database file and its journal files (-wal, -shm, -journal), so the next deploy starts empty. */
export function removeSqliteFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
}

export function providerOf(url: string): Provider {
  if (url.startsWith('file:')) return 'sqlite'
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql'
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${url.slice(0, 20)}...)`)
}

const layout = {
  sqlite: { schema: sourceSchema, migrations: path.join(root, 'prisma/migrations') },
  postgresql: {
    schema: path.join(root, 'prisma/postgresql/schema.prisma'),
    migrations: path.join(root, 'prisma/postgresql/migrations'),
  },
} as const

function renderPostgresSchema(): string {
  const text = fs.readFileSync(sourceSchema, 'utf8')
  const rendered = text
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output   = "../lib/generated/sqlite"', 'output   = "../../lib/generated/postgresql"')
  if (rendered === text) throw new Error('prisma/schema.prisma no longer has the provider/output lines this script swaps')
  return `// GENERATED from prisma/schema.prisma by scripts/db.ts: edit that file, not this one.\n${rendered}`
}

function writePostgresSchema() {
  fs.mkdirSync(path.dirname(layout.postgresql.schema), { recursive: true })
  fs.writeFileSync(layout.postgresql.schema, renderPostgresSchema())
}

function generate() {
  writePostgresSchema()
  const env = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, 'scripts/schema-engine-stub'),
  }
  const prismaCli = path.join(root, 'node_modules/prisma/build/index.js')
  for (const provider of ['sqlite', 'postgresql'] as const) {
    execFileSync(process.execPath, [prismaCli, 'generate', '--schema', layout[provider].schema], { env, stdio: 'inherit', cwd: root })
  }
}

async function adapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (providerOf(url) === 'sqlite') {
    const { PrismaLibSql } = await import('@prisma/adapter-libsql')
    const factory = new PrismaLibSql({ url })
    // The engine replays whole migration.sql files through executeRaw() on the shadow database;
    // libsql runs one statement per execute, so send argument-less multi-statement SQL as a script.
    const connectShadow = factory.connectToShadowDb.bind(factory)
    factory.connectToShadowDb = async () => {
      const shadow = await connectShadow()
      const executeRaw = shadow.executeRaw.bind(shadow)
      shadow.executeRaw = async (query) => {
        if (query.args.length === 0 && /;\s*\S/.test(query.sql)) {
          await shadow.executeScript(query.sql)
          return 0
        }
        return executeRaw(query)
      }
      return shadow
    }
    return factory
  }
  const { PrismaPg } = await import('@prisma/adapter-pg')
  const { parse } = await import('pg-connection-string')
  const parsed = parse(url)
  // Discrete fields, not connectionString: adapter-pg's shadow-database pool spreads
  // { database } over its config, and a connectionString would silently win over it.
  const config = {
    host: parsed.host ?? '127.0.0.1',
    port: Number(parsed.port ?? 5432),
    user: parsed.user,
    password: parsed.password,
    database: parsed.database ?? undefined,
  }
  const withCharColumns = <T,>(adapter: T): T => {
    // The schema describer reads Postgres' internal "char" catalog columns (OID 18), which the
    // adapter cannot decode; they are plain text for this purpose.
    const a = adapter as unknown as { performIO: (q: unknown) => Promise<{ fields?: { dataTypeID: number }[] }> }
    const performIO = a.performIO.bind(a)
    a.performIO = async (q) => {
      const result = await performIO(q)
      for (const field of result.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25
      return result
    }
    return adapter
  }
  const factory = new PrismaPg(config)
  const connect = factory.connect.bind(factory)
  factory.connect = async () => withCharColumns(await connect())
  factory.connectToShadowDb = async () => {
    const main = await connect()
    const name = `prisma_migrate_shadow_db_${crypto.randomUUID().replaceAll('-', '')}`
    await main.executeScript(`CREATE DATABASE "${name}"`)
    const shadow = withCharColumns(await new PrismaPg({ ...config, database: name }).connect())
    const dispose = shadow.dispose.bind(shadow)
    shadow.dispose = async () => {
      await dispose()
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await main.dispose()
    }
    return shadow
  }
  return factory
}

async function loadSchemaEngine() {
  // wasm-bindgen "bundler" output: instantiate the module by hand, Node cannot import it directly.
  const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')
  const bindings = await import(bindingsPath)
  const wasm = new WebAssembly.Module(fs.readFileSync(path.join(path.dirname(bindingsPath), 'schema_engine_bg.wasm')))
  const instance = new WebAssembly.Instance(wasm, { './schema_engine_bg.js': bindings })
  bindings.__wbg_set_wasm(instance.exports)
  ;(instance.exports.__wbindgen_start as () => void)()
  return bindings as { SchemaEngine: { new: (...args: unknown[]) => Promise<SchemaEngine> } }
}

interface SchemaEngine {
  diff(input: unknown): Promise<{ stdout?: string }>
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>
  devDiagnostic(input: unknown): Promise<{ action: { tag: string; reason?: string } }>
  createMigration(input: unknown): Promise<{ migrationScript: string | null; generatedMigrationName: string; extension: string; connectorType: string }>
  free(): void
}

function migrationsList(dir: string) {
  const names = fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : []
  const lock = path.join(dir, 'migration_lock.toml')
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lock) ? fs.readFileSync(lock, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: names.map((name) => {
      const file = path.join(dir, name, 'migration.sql')
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(file) ? { tag: 'ok', value: fs.readFileSync(file, 'utf8') } : { tag: 'error', value: 'missing' },
        },
      }
    }),
  }
}

const filters = { externalTables: [], externalEnums: [] }

async function withEngine<T>(url: string, provider: Provider, run: (engine: SchemaEngine, files: { path: string; content: string }[]) => Promise<T>): Promise<T> {
  const content = provider === 'sqlite' ? fs.readFileSync(sourceSchema, 'utf8') : renderPostgresSchema()
  const files = [{ path: layout[provider].schema, content }]
  const { SchemaEngine } = await loadSchemaEngine()
  const factory = bindMigrationAwareSqlAdapterFactory(await adapterFactory(url))
  // Driver errors are parked in the factory's registry; the engine's message only names their id.
  const explain = (e: unknown) => {
    const id = /External error id#(\d+)/.exec(String((e as Error)?.message))
    const parked = id ? factory.errorRegistry.consumeError(Number(id[1])) : undefined
    if (parked && e instanceof Error) e.message += `: ${JSON.stringify(parked.error)}`
    return e
  }
  let engine: SchemaEngine
  try {
    engine = await SchemaEngine.new({ datamodels: files.map((f) => [f.path, f.content]) }, () => {}, factory)
  } catch (e) {
    throw explain(e)
  }
  try {
    return await run(engine, files)
  } catch (e) {
    throw explain(e)
  } finally {
    engine.free()
  }
}

function ensureSqliteFolder(url: string) {
  if (providerOf(url) !== 'sqlite' || url.includes(':memory:')) return
  fs.mkdirSync(path.dirname(path.resolve(root, url.slice('file:'.length))), { recursive: true })
}

export async function deploy(url: string): Promise<string[]> {
  const provider = providerOf(url)
  ensureSqliteFolder(url)
  return withEngine(url, provider, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList: migrationsList(layout[provider].migrations), filters })
    return result.appliedMigrationNames
  })
}

async function createMigration(url: string, name: string) {
  const provider = providerOf(url)
  const dir = layout[provider].migrations
  ensureSqliteFolder(url)
  await withEngine(url, provider, async (engine, files) => {
    // applyMigrations first: it creates _prisma_migrations, which devDiagnostic expects.
    await engine.applyMigrations({ migrationsList: migrationsList(dir), filters })
    const diagnostic = await engine.devDiagnostic({ migrationsList: migrationsList(dir), filters })
    if (diagnostic.action.tag === 'reset') throw new Error(`the database has drifted from the migrations: ${diagnostic.action.reason}`)
    const out = await engine.createMigration({ draft: false, migrationName: name, migrationsList: migrationsList(dir), schema: { files }, filters })
    if (out.migrationScript == null) {
      console.log('schema and migrations are in sync; nothing created')
      return
    }
    const target = path.join(dir, out.generatedMigrationName)
    fs.mkdirSync(target, { recursive: true })
    fs.writeFileSync(path.join(target, `migration.${out.extension}`), out.migrationScript)
    const lock = path.join(dir, 'migration_lock.toml')
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${out.connectorType}"\n`)
    console.log(`created ${path.relative(root, target)}`)
  })
}

async function main() {
  const [command, arg] = process.argv.slice(2)
  const url = process.env.DATABASE_URL || 'file:./data/modhub.db'
  switch (command) {
    case 'generate':
      generate()
      break
    case 'deploy': {
      const applied = await deploy(url)
      console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date')
      break
    }
    case 'new':
      if (!arg) throw new Error('usage: scripts/db.ts new <name>')
      await createMigration(url, arg)
      break
    case 'diff': {
      const provider = (arg as Provider | undefined) ?? providerOf(url)
      await withEngine(provider === 'sqlite' ? 'file::memory:' : url, provider, async (engine, files) => {
        const out = await engine.diff({ from: { tag: 'empty' }, to: { tag: 'schemaDatamodel', files }, script: true, exitCode: null, filters })
        process.stdout.write(out.stdout ?? '')
      })
      break
    }
    default:
      throw new Error('usage: scripts/db.ts generate | deploy | new <name> | diff [sqlite|postgresql]')
  }
  // pg pools keep the event loop alive for their idle timeout
  process.exit(0)
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
}
