/** Which role a changed file plays: the fix itself (source), its tests, or anything else. */
import type { FileRole } from '../domain.js'

const CODE_EXTENSIONS = /\.(?:[cm]?[jt]sx?|py)$/
const TEST_PATTERNS = [
  /(?:^|\/)__tests__\//,
  /(?:^|\/)(?:test|tests|spec|specs|__test__)\//,
  /\.(?:test|spec)\.[cm]?[jt]sx?$/,
  /[-_]test\.[cm]?[jt]s$/,
  /(?:^|\/)test_[^/]*\.py$/,
  /_test\.py$/,
  /(?:^|\/)conftest\.py$/
]
/** Code that configures tooling rather than being the product: never the fix's "source". */
const OTHER_PATTERNS = [
  /(?:^|\/)\.github\//,
  /(?:^|\/)(?:docs?|examples?|benchmarks?|scripts)\//,
  /(?:^|\/)[^/]*\.config\.[cm]?[jt]s$/,
  /(?:^|\/)(?:setup|noxfile|conftest)\.py$/,
  /(?:^|\/)\.[^/]*rc\.[cm]?js$/,
  /\.d\.ts$/
]

export function classifyFile(path: string): FileRole {
  if (TEST_PATTERNS.some((pattern) => pattern.test(path))) return 'test'
  if (!CODE_EXTENSIONS.test(path)) return 'other'
  if (OTHER_PATTERNS.some((pattern) => pattern.test(path))) return 'other'
  return 'source'
}

const MANIFESTS = /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|pyproject\.toml|setup\.cfg|setup\.py|requirements[^/]*\.txt|poetry\.lock|uv\.lock|Pipfile(?:\.lock)?)$/

/** Files whose change means installed dependencies may no longer match. */
export function isManifest(path: string): boolean {
  return MANIFESTS.test(path)
}
