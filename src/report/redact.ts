/**
 * Secrets never leave the process: every value the run treats as secret (the API key, the tokens) is
 * replaced in everything the tool writes or posts — the report files, the suite, run.log, the job log, the
 * summary, the comment, the annotations. The sandbox keeps tests from reading them; this is the second line.
 *
 * A secret is also masked in the forms a test could print it in without knowing it: as git's credentials
 * (`x-access-token:<token>`), base64-encoded (as actions/checkout writes `AUTHORIZATION: basic <base64>`
 * into .git/config), bare or inside a longer encoded text. And the credentials of any `Authorization:` header
 * and the value of any `extraheader =` line are masked whatever they hold: they may carry a token the tool
 * was never told about.
 */
import type { Logger } from '../ports/logger.js'

export const REDACTED = '***'

export type Redact = (text: string) => string

/** The user name actions/checkout (and GitHub's git over https) pairs a token with. */
const TOKEN_USER = 'x-access-token'

/** `extraheader = <value>` (git's config, any case, `:` or `=`): the value to the line's end, whatever header it holds. */
const EXTRAHEADER_VALUE = /(extraheader["']?[ \t]*[:=][ \t]*)[^\r\n]+/gi
/**
 * `Authorization: <scheme> <credentials>` (any case, `:` or `=`, quoted key too): the credentials. Only with
 * a scheme, so code and prose that merely name the header (`{ authorization: 'user:pw' }` in a test) stay.
 */
const AUTHORIZATION_CREDENTIALS = /(authorization["']?[ \t]*[:=][ \t]*["']?[A-Za-z][\w.~+/-]*[ \t]+)[^\s"'`]{8,}/gi

export function redactor(secrets: string[]): Redact {
  // Longest first, so a secret that contains another (or its encoding) is replaced whole.
  const values = [...new Set(secrets.filter(Boolean).flatMap(secretForms))].sort((a, b) => b.length - a.length)
  return (text) => values.reduce((result, secret) => (result.includes(secret) ? result.split(secret).join(REDACTED) : result), text).replace(EXTRAHEADER_VALUE, `$1${REDACTED}`).replace(AUTHORIZATION_CREDENTIALS, `$1${REDACTED}`)
}

/** The secret, as git's credentials, and each of them base64-encoded at every alignment. */
export function secretForms(secret: string): string[] {
  const plain = [secret, `${TOKEN_USER}:${secret}`]
  return [...plain, ...plain.flatMap((text) => [Buffer.from(text).toString('base64'), ...base64Alignments(text)])]
}

/**
 * What base64 of any longer text holding `text` holds of it, whatever text comes before and after: base64
 * writes 6 bits a character, so the text starts at one of 3 offsets within a 3-byte group. For each, only
 * the characters made of the text's bits alone are kept (those that share bits with its neighbours differ).
 */
export function base64Alignments(text: string): string[] {
  const bytes = Buffer.from(text)
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6))
  })
}

/** The same value with every string in it redacted (keys included). */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)])) as T
  }
  return value
}

/** A logger whose every line is redacted before it reaches the log (and run.log behind it). */
export function redactingLogger(log: Logger, redact: Redact): Logger {
  return {
    info: (message) => log.info(redact(message)),
    warn: (message) => log.warn(redact(message)),
    error: (message) => log.error(redact(message)),
    debug: (message) => log.debug(redact(message))
  }
}
