/** A failure the user can act on: what went wrong, and what to do about it. Caught once, at each entry. */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly hint: string = ''
  ) {
    super(message)
    this.name = 'UserFacingError'
  }
}

/** Invalid CLI flags or action inputs: names the input and what it accepts. */
export class SettingsError extends UserFacingError {
  constructor(
    readonly input: string,
    readonly problem: string,
    hint = ''
  ) {
    super(`Invalid ${input}: ${problem}`, hint)
    this.name = 'SettingsError'
  }

  /** The same refusal, naming the input as the user wrote it (on the command line, `--reruns` for `reruns`). */
  namedAs(input: string, hint: string): SettingsError {
    return new SettingsError(input, this.problem, hint)
  }
}

/** The model's answer could not be used, even after the retry with the validation errors. */
export class ModelOutputError extends UserFacingError {
  constructor(stage: string, problems: string[]) {
    super(`The model's ${stage} answer was invalid twice: ${problems.slice(0, 5).join('; ')}`)
    this.name = 'ModelOutputError'
  }
}

/** The max-model-calls budget is spent: the run goes on with what it has where it can. */
export class ModelCallLimitError extends UserFacingError {
  constructor(readonly limit: number, stage: string) {
    super(`The model call limit (${limit}) was reached before the ${stage} call`, 'raise max-model-calls')
    this.name = 'ModelCallLimitError'
  }
}

export function describeError(error: unknown): string {
  if (error instanceof UserFacingError) return error.hint ? `${error.message} (${error.hint})` : error.message
  if (error instanceof Error) return error.message
  return String(error)
}

/** Not a failure: the change has nothing to prove (verdict `not-applicable`); the reason says why. */
export class NotApplicable extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'NotApplicable'
  }
}
