/**
 * Reading what the sandbox wrote: real files, links, FIFOs and owners in a temp folder. Each refusal is an
 * attack a test can make on its runner's report.
 */
import { execFileSync } from 'node:child_process'
import { chown, mkdir, mkdtemp, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { acceptSandboxOwner, MAX_JSON_DEPTH, parseSandboxJson, readPlainFileSync, readSandboxFile, SANDBOX_FILE_LIMITS, SandboxFileRefused } from '../../src/ports/sandbox-files.js'
import { readPackageJsonSync } from '../../src/frameworks/packages.js'

const asRoot = process.getuid?.() === 0
const itAsRoot = asRoot ? it : it.skip

let scratch: string
let secret: string

beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-files-'))
  scratch = join(dir, 'scratch')
  await mkdir(scratch)
  // Outside the scratch folder: what a link would point at.
  secret = join(dir, 'secret.txt')
  await writeFile(secret, 'TOP-SECRET')
})

async function refusal(path: string, kind: 'results' | 'coverage' = 'results'): Promise<string> {
  const error = await readSandboxFile(scratch, path, kind).then(
    () => null,
    (thrown: unknown) => thrown
  )
  expect(error).toBeInstanceOf(SandboxFileRefused)
  return (error as SandboxFileRefused).message
}

describe('readSandboxFile', () => {
  it('reads a plain report and says null for one that is missing', async () => {
    await mkdir(join(scratch, 'coverage'))
    await writeFile(join(scratch, 'coverage', 'coverage-final.json'), '{"a":1}')
    expect(await readSandboxFile(scratch, join(scratch, 'coverage', 'coverage-final.json'), 'coverage')).toBe('{"a":1}')
    expect(await readSandboxFile(scratch, join(scratch, 'report.json'), 'results')).toBeNull()
    expect(await readSandboxFile(scratch, join(scratch, 'missing', 'report.json'), 'results')).toBeNull()
  })

  it('refuses a report replaced with a link, without reading its target', async () => {
    const report = join(scratch, 'report.json')
    await symlink(secret, report)
    const message = await refusal(report)
    expect(message).toContain('symbolic link')
    expect(message).not.toContain('TOP-SECRET')
  })

  it('refuses a report whose folder is a link', async () => {
    await symlink(join(secret, '..'), join(scratch, 'coverage'))
    expect(await refusal(join(scratch, 'coverage', 'secret.txt'), 'coverage')).toContain(`folder ${join(scratch, 'coverage')} is a symbolic link`)
  })

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const report = join(scratch, 'report.tap')
    execFileSync('mkfifo', [report])
    expect(await refusal(report)).toContain('not a regular file (a FIFO)')
  })

  it('refuses a report over its kind\'s size limit, naming the limit', async () => {
    const report = join(scratch, 'report.json')
    await writeFile(report, '')
    // A sparse file: its size is what counts, nothing is written.
    await truncate(report, SANDBOX_FILE_LIMITS.results + 1)
    expect(await refusal(report)).toContain('over the 32 MB limit')
    await truncate(report, SANDBOX_FILE_LIMITS.results)
    expect((await readSandboxFile(scratch, report, 'results'))?.length).toBe(SANDBOX_FILE_LIMITS.results)
  })

  it('names a refused file on one line, its control characters escaped', async () => {
    const report = join(scratch, 'coverage-1.json\n::error::forged')
    await symlink(secret, report)
    expect(await refusal(report)).toContain('coverage-1.json\\x0a::error::forged, written by')
  })

  it('refuses a path outside the scratch folder', async () => {
    expect(await refusal(secret)).toContain("not inside the runner's folder")
  })

  itAsRoot("refuses a file of another owner, and reads the sandbox user's once the sandbox says who it is", async () => {
    const report = join(scratch, 'report.json')
    await writeFile(report, '{}')
    await chown(report, 54321, 54321)
    expect(await refusal(report)).toContain('owned by uid 54321')
    acceptSandboxOwner(54321)
    expect(await readSandboxFile(scratch, report, 'results')).toBe('{}')
  })
})

describe('parseSandboxJson', () => {
  it('parses what runners write', () => {
    expect(parseSandboxJson('r.json', '{"result":[{"url":"a","functions":[{"ranges":[{"count":1}]}]}],"s":"[[[["}')).toMatchObject({ s: '[[[[' })
  })

  it('refuses JSON nested deeper than any runner writes', () => {
    const nested = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)
    expect(() => parseSandboxJson('coverage.json', nested)).toThrow(`nests ${MAX_JSON_DEPTH + 1} levels deep (the limit is ${MAX_JSON_DEPTH})`)
    expect(() => parseSandboxJson('coverage.json', '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).not.toThrow()
  })
})

describe('readPlainFileSync (an installed package\'s package.json, through the tree\'s own links)', () => {
  it('reads a plain file, through a link too, and says null for a missing one', async () => {
    await writeFile(join(scratch, 'package.json'), '{"version":"1.2.3"}')
    await mkdir(join(scratch, 'linked'))
    await symlink(join(scratch, 'package.json'), join(scratch, 'linked', 'package.json'))
    expect(readPackageJsonSync(scratch)).toEqual({ version: '1.2.3' })
    expect(readPlainFileSync(join(scratch, 'linked', 'package.json'))).toBe('{"version":"1.2.3"}')
    expect(readPlainFileSync(join(scratch, 'missing.json'))).toBeNull()
  })

  it('says null at once for a FIFO, where a blocking read would wait for a writer forever', () => {
    execFileSync('mkfifo', [join(scratch, 'package.json')])
    expect(readPlainFileSync(join(scratch, 'package.json'))).toBeNull()
    expect(readPackageJsonSync(scratch)).toBeNull()
  })

  it('says null for a folder, and for a file over the config limit', async () => {
    await mkdir(join(scratch, 'package.json'))
    expect(readPlainFileSync(join(scratch, 'package.json'))).toBeNull()
    const big = join(scratch, 'big.json')
    await writeFile(big, '')
    await truncate(big, SANDBOX_FILE_LIMITS.config + 1)
    expect(readPlainFileSync(big)).toBeNull()
  })
})
