/**
 * A fake npm registry on 127.0.0.1, for corepack's downloads of pnpm and yarn in the tests. The package
 * managers are devDependencies of this repository: each is packed from its installed folder (`npm pack`,
 * offline) and served with what corepack reads — the versions, the tarball, its integrity and shasum, and a
 * signature by a key of this registry's own, which the tests give corepack as the one it trusts
 * (COREPACK_INTEGRITY_KEYS), so corepack's signature and hash checks run as they do against npm's registry.
 */
import { execFile } from 'node:child_process'
import { createHash, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { readFileSync, realpathSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const projectNodeModules = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules')

interface PackedPackage {
  name: string
  version: string
  /** The tarball's file name, as npm names it (`pnpm-9.15.9.tgz`). */
  file: string
  tarball: Buffer
  integrity: string
  shasum: string
}

export interface FakeNpmRegistry {
  url: string
  /** The settings that make corepack download from this registry and trust its signatures. */
  corepackEnv: { COREPACK_NPM_REGISTRY: string; COREPACK_INTEGRITY_KEYS: string }
  /** The version served of each package. */
  versions: Record<string, string>
  /** Each request's path, in order. */
  requests: string[]
  close(): Promise<void>
}

/** Serves the devDependencies `names` (pnpm, yarn) at their installed versions. */
export async function startFakeNpmRegistry(names: string[]): Promise<FakeNpmRegistry> {
  const packed = await Promise.all(names.map(packInstalled))
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const keyid = 'SHA256:fake-npm-registry'
  const requests: string[] = []
  let url = ''
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname)
    requests.push(path)
    const answer = respond(path, packed, url, { keyid, privateKey })
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }))
    } else if (Buffer.isBuffer(answer)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': answer.length }).end(answer)
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const key = publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
  return {
    url,
    corepackEnv: { COREPACK_NPM_REGISTRY: url, COREPACK_INTEGRITY_KEYS: JSON.stringify({ npm: [{ keyid, key }] }) },
    versions: Object.fromEntries(packed.map((pkg) => [pkg.name, pkg.version])),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** `/name` (the packument), `/name/version` or `/name/latest` (one version), `/name/-/file.tgz` (the tarball). */
function respond(path: string, packed: PackedPackage[], url: string, signer: { keyid: string; privateKey: KeyObject }): Buffer | object | null {
  const [, name, rest = ''] = /^\/((?:@[^/]+\/)?[^/@]+)(?:\/(.*))?$/.exec(path) ?? []
  const found = packed.find((pkg) => pkg.name === name)
  if (!found) return null
  const manifest = () => {
    const signed = `${found.name}@${found.version}:${found.integrity}`
    const sig = createSign('SHA256').update(signed).sign(signer.privateKey, 'base64')
    const dist = { tarball: `${url}/${found.name}/-/${found.file}`, integrity: found.integrity, shasum: found.shasum, signatures: [{ keyid: signer.keyid, sig }] }
    return { name: found.name, version: found.version, dist }
  }
  if (rest === '') return { name: found.name, 'dist-tags': { latest: found.version }, versions: { [found.version]: manifest() } }
  if (rest === found.version || rest === 'latest') return manifest()
  if (rest === `-/${found.file}`) return found.tarball
  return null
}

/** The devDependency `name` packed from its folder in node_modules, as the registry would serve it. */
async function packInstalled(name: string): Promise<PackedPackage> {
  const folder = join(projectNodeModules, name)
  const { version } = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { version: string }
  const into = await mkdtemp(join(tmpdir(), 'fake-npm-registry-'))
  try {
    const file = `${name}-${version}.tgz`
    // --offline: a folder packs without the registry; nothing here may reach it.
    await promisify(execFile)('npm', ['pack', folder, '--pack-destination', into, '--ignore-scripts', '--offline', '--silent'], { maxBuffer: 16 * 1024 * 1024 })
    const tarball = await readFile(join(into, file))
    return { name, version, file, tarball, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`, shasum: createHash('sha1').update(tarball).digest('hex') }
  } finally {
    await rm(into, { recursive: true, force: true })
  }
}

/** The names a devDependency's `bin` gives its programs (`pnpm`, `pnpx`). */
function binNames(name: string): string[] {
  const { bin } = JSON.parse(readFileSync(join(projectNodeModules, name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
  return typeof bin === 'string' ? [name] : Object.keys(bin ?? {})
}

/** PATH without the folders where a program of `names` is one of this repository's devDependencies (`npm test` puts node_modules/.bin on PATH). */
function pathWithout(path: string, names: string[]): string {
  const programs = names.flatMap(binNames)
  const installed = realpathSync(projectNodeModules) + sep
  const fromDevDependency = (folder: string) =>
    programs.some((program) => {
      try {
        return !relative(installed, realpathSync(join(folder, program))).startsWith('..')
      } catch {
        return false
      }
    })
  return path.split(delimiter).filter((folder) => !fromDevDependency(folder)).join(delimiter)
}

/**
 * Call inside a describe block: for its tests this machine has none of the package managers `names`
 * (pnpm, yarn) on PATH, and corepack downloads them from a fake registry serving this repository's
 * devDependencies, started before the tests. The machine's COREPACK_* settings reach the sandbox's commands
 * that download (corepackEnvironment), as a user's would; these are them.
 */
export function corepackFromFakeRegistry(names: string[]): { registry: () => FakeNpmRegistry } {
  const saved = { PATH: process.env.PATH, COREPACK_NPM_REGISTRY: process.env.COREPACK_NPM_REGISTRY, COREPACK_INTEGRITY_KEYS: process.env.COREPACK_INTEGRITY_KEYS }
  let registry: FakeNpmRegistry | null = null
  beforeAll(async () => {
    registry = await startFakeNpmRegistry(names)
    Object.assign(process.env, registry.corepackEnv, { PATH: pathWithout(process.env.PATH ?? '', names) })
  }, 120_000)
  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await registry?.close()
  })
  return {
    registry: () => {
      if (!registry) throw new Error('the fake npm registry starts before the tests (corepackFromFakeRegistry inside a describe block)')
      return registry
    }
  }
}
