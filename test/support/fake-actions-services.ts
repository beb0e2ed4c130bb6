/**
 * A fake GitHub Actions results service on 127.0.0.1 for the real `@actions/cache` (cache service v2) and
 * `@actions/artifact`: their twirp JSON endpoints, and the Azure-style blob storage their signed URLs point at.
 * Blob URLs are Azurite-style (`/devstoreaccount1/<container>/<blob>`) so `@azure/storage-blob` parses them;
 * it uploads with one `PUT` (cache archives) or staged blocks and a block list (artifact zips). Cache
 * downloads from a non-Azure host are a plain `GET` by `@actions/http-client`.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inflateRawSync } from 'node:zlib'

export interface FakeActionsServices {
  url: string
  /** Cache entries saved so far, oldest first: key, version, and the archive bytes (tar.gz / tar.zst). */
  cacheEntries: Array<{ key: string; version: string; archive: Buffer }>
  /** Artifacts uploaded so far: name, retention days asked, id, and the zip's files (path inside the zip → contents). */
  artifacts: Array<{ id: number; name: string; retentionDays?: number; files: Record<string, Buffer> }>
  /** Every request: the path, with `?comp=…` for blob operations. */
  requests: Array<{ method: string; path: string }>
  close(): Promise<void>
}

export interface FakeActionsOptions {
  /**
   * Every cache endpoint answers this status. Use a 4xx such as 400, which fails at once: the library retries
   * a 5xx five times, about 30 s per call, and that cannot be shortened from outside.
   */
  failCache?: number
}

const TWIRP = '/twirp/github.actions.results.api.v1.'
const ACCOUNT = '/devstoreaccount1/'
export const WORKFLOW_RUN_BACKEND_ID = 'c0ffee00-0000-4000-8000-000000000001'
export const WORKFLOW_JOB_RUN_BACKEND_ID = 'c0ffee00-0000-4000-8000-000000000002'

/** An unsigned but well-formed runtime token whose `scp` claim names the backend ids @actions/artifact reads. */
export function runtimeToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const scp = `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${WORKFLOW_RUN_BACKEND_ID}:${WORKFLOW_JOB_RUN_BACKEND_ID}`
  return `${part({ typ: 'JWT', alg: 'none' })}.${part({ scp, exp: Math.floor(Date.now() / 1000) + 3600 })}.fake`
}

/**
 * The env vars a runner sets for both libraries to use the fake. GITHUB_SERVER_URL must be a github.com host:
 * any other (such as a fake GitHub on 127.0.0.1) reads as GHES, where cache falls back to v1 and artifact throws.
 */
export function actionsEnv(services: FakeActionsServices): Record<string, string> {
  return {
    ACTIONS_RUNTIME_TOKEN: runtimeToken(),
    ACTIONS_RESULTS_URL: `${services.url}/`,
    ACTIONS_CACHE_SERVICE_V2: 'True',
    GITHUB_SERVER_URL: 'https://github.com'
  }
}

type Upload = { kind: 'cache'; key: string; version: string } | { kind: 'artifact'; name: string; retentionDays?: number }
type Reply = { status: number; body: unknown }

export async function startFakeActionsServices(options: FakeActionsOptions = {}): Promise<FakeActionsServices> {
  const cacheEntries: FakeActionsServices['cacheEntries'] = []
  const artifacts: FakeActionsServices['artifacts'] = []
  const requests: FakeActionsServices['requests'] = []
  const uploads = new Map<string, Upload>() // blob path → what it was reserved for
  const blobs = new Map<string, Buffer>()
  const blocks = new Map<string, Map<string, Buffer>>() // blob path → staged blocks by id
  const failStatus = options.failCache ?? 0
  let url = ''

  const signedUrl = (blob: string) => `${url}${ACCOUNT}${blob}?sv=2024-11-04&se=2099-01-01T00%3A00%3A00Z&sp=rcw&sig=fake-${randomUUID()}`
  const reserve = (container: string, upload: Upload) => {
    const blob = `${container}/${randomUUID()}`
    uploads.set(blob, upload)
    return signedUrl(blob)
  }
  const uploaded = (match: (upload: Upload) => boolean): [string, Upload] | undefined =>
    [...uploads].find(([blob, upload]) => blobs.has(blob) && match(upload))

  const cacheService: Record<string, (body: any) => Reply> = {
    CreateCacheEntry: ({ key, version }) => {
      if (cacheEntries.some((entry) => entry.key === key && entry.version === version)) return ok({ ok: false, message: `cache entry ${key} already exists` })
      return ok({ ok: true, signed_upload_url: reserve('cache', { kind: 'cache', key, version }) })
    },
    FinalizeCacheEntryUpload: ({ key, version }) => {
      const found = uploaded((upload) => upload.kind === 'cache' && upload.key === key && upload.version === version)
      if (!found) return ok({ ok: false, message: `no upload for cache entry ${key}` })
      uploads.delete(found[0])
      cacheEntries.push({ key, version, archive: blobs.get(found[0])! })
      return ok({ ok: true, entry_id: String(cacheEntries.length) })
    },
    GetCacheEntryDownloadURL: ({ key, restore_keys = [], version }) => {
      const newest = (match: (entryKey: string) => boolean) =>
        cacheEntries.findLast((entry) => entry.version === version && match(entry.key))
      const byPrefix = () => restore_keys.map((prefix: string) => newest((entryKey) => entryKey.startsWith(prefix))).find(Boolean)
      const entry = newest((entryKey) => entryKey === key) ?? byPrefix()
      if (!entry) return ok({ ok: false })
      const blob = `cache/entry-${cacheEntries.indexOf(entry)}`
      blobs.set(blob, entry.archive)
      return ok({ ok: true, signed_download_url: signedUrl(blob), matched_key: entry.key })
    }
  }
  const artifactService: Record<string, (body: any) => Reply> = {
    CreateArtifact: ({ name, expires_at }) => {
      if (artifacts.some((artifact) => artifact.name === name)) return { status: 409, body: { code: 'already_exists', msg: `artifact ${name} exists` } }
      return ok({ ok: true, signed_upload_url: reserve('artifacts', { kind: 'artifact', name, retentionDays: retentionDays(expires_at) }) })
    },
    FinalizeArtifact: ({ name }) => {
      const found = uploaded((upload) => upload.kind === 'artifact' && upload.name === name)
      if (!found || found[1].kind !== 'artifact') return { status: 404, body: { code: 'not_found', msg: `no upload for artifact ${name}` } }
      uploads.delete(found[0])
      const artifact = { id: artifacts.length + 1, name, retentionDays: found[1].retentionDays, files: unzip(blobs.get(found[0])!) }
      artifacts.push(artifact)
      return ok({ ok: true, artifact_id: String(artifact.id) })
    }
  }

  const twirp = (service: Record<string, (body: any) => Reply>, method: string, body: string, failing: boolean): Reply => {
    if (failing) return { status: failStatus, body: { code: 'internal', msg: 'fake-actions-services: failing as asked' } }
    const handler = service[method]
    return handler ? handler(JSON.parse(body)) : { status: 404, body: { code: 'bad_route', msg: `no method ${method}` } }
  }

  const server = createServer(async (req, res) => {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://fake')
    const comp = searchParams.get('comp')
    requests.push({ method: req.method ?? '', path: comp ? `${pathname}?comp=${comp}` : pathname })
    const body = await readBytes(req)
    if (req.method === 'POST' && pathname.startsWith(`${TWIRP}CacheService/`)) {
      return sendJson(res, twirp(cacheService, pathname.slice(`${TWIRP}CacheService/`.length), body.toString('utf8'), failStatus > 0))
    }
    if (req.method === 'POST' && pathname.startsWith(`${TWIRP}ArtifactService/`)) {
      return sendJson(res, twirp(artifactService, pathname.slice(`${TWIRP}ArtifactService/`.length), body.toString('utf8'), false))
    }
    if (!pathname.startsWith(ACCOUNT)) return sendJson(res, { status: 404, body: { msg: `fake-actions-services: no route ${req.method} ${pathname}` } })
    const blob = decodeURIComponent(pathname.slice(ACCOUNT.length))
    if (req.method === 'GET' || req.method === 'HEAD') return sendBlob(req, res, blobs.get(blob))
    if (req.method !== 'PUT') return sendStorageError(res, 405, 'UnsupportedHttpVerb')
    if (comp === 'block') {
      const staged = blocks.get(blob) ?? new Map<string, Buffer>()
      blocks.set(blob, staged.set(searchParams.get('blockid') ?? '', body))
      return sendStored(res, body, false)
    }
    if (comp === 'blocklist') {
      const ids = [...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)</g)].map((match) => match[1])
      const staged = blocks.get(blob)
      if (!staged || ids.some((id) => !staged.has(id))) return sendStorageError(res, 400, 'InvalidBlockList')
      blobs.set(blob, Buffer.concat(ids.map((id) => staged.get(id)!)))
      blocks.delete(blob)
      return sendStored(res, blobs.get(blob)!, true)
    }
    if (comp || req.headers['x-ms-blob-type'] !== 'BlockBlob') return sendStorageError(res, 400, 'UnsupportedOperation')
    blobs.set(blob, body)
    sendStored(res, body, true)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    cacheEntries,
    artifacts,
    requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

const ok = (body: unknown): Reply => ({ status: 200, body })

/** The days from now to a protobuf JSON timestamp, as @actions/artifact turned `retentionDays` into one. */
function retentionDays(expiresAt: string | undefined): number | undefined {
  return expiresAt ? Math.round((Date.parse(expiresAt) - Date.now()) / 86_400_000) : undefined
}

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function sendJson(res: ServerResponse, { status, body }: Reply) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The headers every Azure storage reply carries; the SDK reads them into its typed responses. */
function storageHeaders(): Record<string, string> {
  return { 'x-ms-request-id': randomUUID(), 'x-ms-version': '2025-01-05', date: new Date().toUTCString() }
}

function sendStored(res: ServerResponse, body: Buffer, committed: boolean) {
  const md5 = createHash('md5').update(body).digest('base64')
  const etag = `"0x${createHash('sha1').update(body).digest('hex').slice(0, 16).toUpperCase()}"`
  const blobHeaders = committed ? { etag, 'last-modified': new Date().toUTCString() } : {}
  res.writeHead(201, { ...storageHeaders(), ...blobHeaders, 'content-md5': md5, 'x-ms-request-server-encrypted': 'true', 'content-length': '0' })
  res.end()
}

function sendStorageError(res: ServerResponse, status: number, code: string) {
  res.writeHead(status, { ...storageHeaders(), 'x-ms-error-code': code, 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>fake-actions-services: ${code}</Message></Error>`)
}

/** A blob's bytes, whole or one `Range: bytes=a-b`, as Azure serves them (HEAD gives the length alone). */
function sendBlob(req: IncomingMessage, res: ServerResponse, blob: Buffer | undefined) {
  if (!blob) return sendStorageError(res, 404, 'BlobNotFound')
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '')
  const start = range ? Number(range[1]) : 0
  const end = range?.[2] ? Math.min(Number(range[2]), blob.length - 1) : blob.length - 1
  const part = blob.subarray(start, end + 1)
  const rangeHeaders = range ? { 'content-range': `bytes ${start}-${end}/${blob.length}` } : {}
  const headers = { 'content-type': 'application/octet-stream', 'content-length': String(part.length), 'accept-ranges': 'bytes' }
  res.writeHead(range ? 206 : 200, { ...storageHeaders(), ...rangeHeaders, ...headers })
  res.end(req.method === 'HEAD' ? undefined : part)
}

/** A zip's files by path, read from its central directory (local headers of a streamed zip carry no sizes). */
export function unzip(zip: Buffer): Record<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0) throw new Error('fake-actions-services: the artifact is not a zip')
  const files: Record<string, Buffer> = {}
  for (let at = zip.readUInt32LE(end + 16), left = zip.readUInt16LE(end + 10); left > 0; left--) {
    const method = zip.readUInt16LE(at + 10)
    const size = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength)
    const local = zip.readUInt32LE(at + 42)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(start, start + size)
    if (!name.endsWith('/')) files[name] = method === 8 ? inflateRawSync(data) : Buffer.from(data)
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return files
}
