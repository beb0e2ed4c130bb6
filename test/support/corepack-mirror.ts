/**
 * This machine's registry mirror serves package metadata without npm's signatures, which corepack checks:
 * the tests that let corepack fetch a package manager turn the check off for their duration. The machine's
 * COREPACK_* settings reach the sandbox's commands that download (corepackEnvironment), as a user's would.
 * Call inside a describe block.
 */
export function withoutCorepackSignatureCheck(): void {
  const integrityKeys = process.env.COREPACK_INTEGRITY_KEYS
  beforeAll(() => {
    process.env.COREPACK_INTEGRITY_KEYS = '0'
  })
  afterAll(() => {
    if (integrityKeys === undefined) delete process.env.COREPACK_INTEGRITY_KEYS
    else process.env.COREPACK_INTEGRITY_KEYS = integrityKeys
  })
}
