import { RetryBudget } from './retry-budget'

export interface TransportRequest {
  url: string
  stream?: boolean
}

export interface TransportResponse {
  status: number
  body?: string
}

export type Fetcher = (request: TransportRequest) => Promise<TransportResponse>

export interface TransportOptions {
  /** Retry tokens a call may spend (default 10). */
  retryBudget?: number
  /** Attempts of a plain (non-streaming) call (default 3). */
  maxAttempts?: number
}

export class RetryBudgetExhaustedError extends Error {
  constructor(readonly status: number) {
    super(`retry budget exhausted (last status ${status})`)
    this.name = 'RetryBudgetExhaustedError'
  }
}

const RETRYABLE = new Set([429, 503])

export class StreamingTransport {
  readonly budget: RetryBudget
  private readonly maxAttempts: number

  constructor(private readonly fetcher: Fetcher, options: TransportOptions = {}) {
    this.budget = new RetryBudget(options.retryBudget ?? 10)
    this.maxAttempts = options.maxAttempts ?? 3
  }

  /** A plain call: retried on 429/503 up to maxAttempts; the last response is returned either way. */
  async send(request: TransportRequest): Promise<TransportResponse> {
    let response = await this.fetcher(request)
    for (let attempt = 1; attempt < this.maxAttempts && RETRYABLE.has(response.status); attempt++) {
      response = await this.fetcher(request)
    }
    return response
  }

  /** A streaming call: retried on 429/503 while the retry budget lasts. */
  stream(request: TransportRequest): Promise<TransportResponse> {
    return this._open({ ...request, stream: true })
  }

  async _open(request: TransportRequest): Promise<TransportResponse> {
    const budget = this.budget
    let response = await this.fetcher(request)
    while (RETRYABLE.has(response.status)) {
      const cost = response.status
      if (!budget.tryCharge(cost)) throw new RetryBudgetExhaustedError(response.status)
      response = await this.fetcher(request)
    }
    return response
  }
}
