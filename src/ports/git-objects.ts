/**
 * Objects read through one long-lived `git cat-file --batch` (contents) or `--batch-check` (sizes) for
 * the whole run: the context and the model's reads ask for dozens of files one after another, and starting
 * git for each was most of what they cost. git.ts starts it as every other call of the tool's git (its
 * environment and hardening); a batch runs no filter and no textconv.
 */
import type { ChildProcessByStdio } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { onInterrupt } from './process.js'

export type BatchProcess = ChildProcessByStdio<Writable, Readable, null>

export interface BatchObject {
  type: string
  size: number
  /** Null from a `--batch-check`. */
  content: Buffer | null
}

interface Pending {
  resolve(found: BatchObject | null): void
  reject(error: Error): void
}

/** How long an idle batch stays for the next question. */
const IDLE_MS = 2000

/** `<object id> <type> <size>`; anything else (`<name> missing`, `<name> ambiguous`) found nothing. */
const HEADER = /^[0-9a-f]{40}(?:[0-9a-f]{24})? (\S+) (\d+)$/

export class ObjectBatch {
  private starting: Promise<BatchProcess> | null = null
  private running: BatchProcess | null = null
  private readonly pending: Pending[] = []
  private parts: Buffer[] = []
  private buffered = 0
  private idleTimer: NodeJS.Timeout | undefined
  /** The object whose content is still arriving. */
  private header: { type: string; size: number } | null = null

  constructor(
    private readonly start: () => Promise<BatchProcess>,
    private readonly withContent: boolean,
    private readonly timeoutMs: number,
    private readonly maxContentBytes = Infinity
  ) {}

  /** The object `name` names (`<commit>:<path>`), or null where there is none; rejects when git fails. */
  async ask(name: string): Promise<BatchObject | null> {
    // A batch reads one name per line.
    if (/[\n\r\0]/.test(name)) throw new Error('a name with a line break cannot go through the batch')
    const child = await (this.starting ??= this.started())
    if (this.running !== child) throw new Error('git cat-file ended')
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(child, new Error(`git cat-file answered nothing in ${Math.round(this.timeoutMs / 1000)} s`)), this.timeoutMs)
      const settle = <T>(finish: (value: T) => void) => (value: T) => {
        clearTimeout(timer)
        finish(value)
      }
      this.pending.push({ resolve: settle(resolve), reject: settle(reject) })
      if (this.pending.length === 1) {
        clearTimeout(this.idleTimer)
        hold(child, true)
      }
      child.stdin.write(`${name}\n`)
    })
  }

  private async started(): Promise<BatchProcess> {
    let child: BatchProcess
    try {
      child = await this.start()
    } catch (error) {
      this.starting = null
      throw error
    }
    this.running = child
    const forget = onInterrupt(() => child.kill('SIGKILL'))
    // What an earlier process (failed, replaced) still says is not an answer.
    child.stdout.on('data', (chunk: Buffer) => this.running === child && this.received(chunk))
    child.stdin.on('error', () => undefined)
    child.once('error', (error) => this.fail(child, error))
    child.once('exit', () => {
      forget()
      this.fail(child, new Error('git cat-file ended'))
    })
    this.idle(child)
    return child
  }

  private received(chunk: Buffer): void {
    this.parts.push(chunk)
    this.buffered += chunk.length
    while (this.pending.length > 0 && this.answerOne());
  }

  /** Settles the oldest question when its whole answer has arrived. */
  private answerOne(): boolean {
    if (!this.header) {
      const lineEnd = this.joined().indexOf(10)
      if (lineEnd < 0) return false
      const found = HEADER.exec(this.take(lineEnd + 1).subarray(0, lineEnd).toString('utf8'))
      if (!found) return this.settle(null)
      const object = { type: found[1], size: Number(found[2]) }
      if (!this.withContent) return this.settle({ ...object, content: null })
      // Not held in memory: the questions open fail (git.ts asks git itself, which stops at its output limit).
      if (object.size > this.maxContentBytes) {
        this.fail(this.running!, new Error(`an object of ${object.size} bytes`))
        return false
      }
      this.header = object
    }
    // The content, then a line feed.
    if (this.buffered < this.header.size + 1) return false
    const content = this.take(this.header.size + 1).subarray(0, this.header.size)
    const object = { ...this.header, content }
    this.header = null
    return this.settle(object)
  }

  private settle(found: BatchObject | null): true {
    this.pending.shift()!.resolve(found)
    if (this.pending.length === 0 && this.running) this.idle(this.running)
    return true
  }

  /** Idle, it keeps nothing alive, and ends after a while (a long-lived process makes many of these). */
  private idle(child: BatchProcess): void {
    hold(child, false)
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (this.running === child && this.pending.length === 0) this.fail(child, new Error('idle'))
    }, IDLE_MS)
    this.idleTimer.unref()
  }

  private joined(): Buffer {
    if (this.parts.length > 1) this.parts = [Buffer.concat(this.parts)]
    return this.parts[0] ?? Buffer.alloc(0)
  }

  private take(bytes: number): Buffer {
    const all = this.joined()
    const rest = all.subarray(bytes)
    this.parts = rest.length ? [rest] : []
    this.buffered = rest.length
    return all.subarray(0, bytes)
  }

  /** Every question still open fails, and `child` is killed; the next question starts git again. */
  private fail(child: BatchProcess, error: Error): void {
    child.kill('SIGKILL')
    if (this.running !== child) return
    this.running = null
    this.starting = null
    this.parts = []
    this.buffered = 0
    this.header = null
    for (const waiting of this.pending.splice(0)) waiting.reject(error)
  }
}

/** While questions are open the process and its output keep the event loop alive; idle, neither does. */
function hold(child: BatchProcess, busy: boolean): void {
  for (const handle of [child, child.stdout, child.stdin] as Array<{ ref?(): void; unref?(): void }>) {
    if (busy) handle.ref?.()
    else handle.unref?.()
  }
}
