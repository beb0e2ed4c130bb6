/**
 * Credentials a checkout left in the repository's config: actions/checkout's default
 * (`persist-credentials: true`) writes the job's token into .git/config (v5) or into a
 * `$RUNNER_TEMP/git-credentials-*.config` file .git/config includes (v6), readable by any user. The
 * sandbox hides them (private-mounts.ts), where it can; the run cannot unwrite them: it learns each as a
 * secret, so the redactor masks it in everything written or posted, and warns where they are.
 */
import type { PersistedCredential } from './ports/git.js'
import { MIN_SECRET_LENGTH, type Settings } from './settings.js'

/** The settings with the credentials found learned as secrets, and where they are for the warning. */
export function withCredentialsLearned(settings: Settings, found: PersistedCredential[]): Settings {
  if (found.length === 0) return settings
  const learned = found.flatMap((credential) => headerSecrets(credential.value)).filter((secret) => secret.length >= MIN_SECRET_LENGTH)
  return { ...settings, secrets: [...settings.secrets, ...learned], persistedCredentials: found.map((credential) => `${credential.file}: ${credential.key}`) }
}

/**
 * What an extraheader value holds that is secret: the whole value, its credentials (the part after the
 * scheme), and for `basic` the decoded `user:password` and the password (the token, after x-access-token:).
 */
export function headerSecrets(value: string): string[] {
  const secrets = [value.trim()]
  const header = /^(?:[\w-]+[ \t]*:[ \t]*)?([\w-]+)[ \t]+(\S+)$/.exec(value.trim())
  if (!header) return secrets
  const [, scheme, credentials] = header
  secrets.push(credentials)
  const decoded = scheme.toLowerCase() === 'basic' ? Buffer.from(credentials, 'base64').toString('utf8') : ''
  // Only what really was base64 of `user:password`.
  const colon = decoded.indexOf(':')
  if (colon >= 0 && Buffer.from(decoded).toString('base64').replace(/=+$/, '') === credentials.replace(/=+$/, '')) secrets.push(decoded, decoded.slice(colon + 1))
  return secrets
}

/** The warning, in the log and the report: where the credentials are, and what keeps them out. */
export function persistedCredentialsWarning(places: string[]): string | null {
  if (places.length === 0) return null
  return (
    `The checkout left credentials in the repository's git config, readable by any user of this machine: ${places.join('; ')}. ` +
    "The sandbox hides them from the repository's code where it can mount (see the isolation detail) and they are masked in everything this run writes, but other steps of the job can still read them: check out with `persist-credentials: false` (actions/checkout)"
  )
}
