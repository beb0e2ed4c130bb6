export { RetryBudget } from './retry-budget'
export { RetryBudgetExhaustedError, StreamingTransport } from './streaming-transport'
export type { Fetcher, TransportOptions, TransportRequest, TransportResponse } from './streaming-transport'
