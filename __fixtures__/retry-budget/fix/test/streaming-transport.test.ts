import { StreamingTransport, type TransportResponse } from '../src/streaming-transport'

const replies = (...statuses: number[]) => {
  const queue = [...statuses]
  return async (): Promise<TransportResponse> => ({ status: queue.shift() ?? 200 })
}

describe('StreamingTransport.stream', () => {
  it('retries a streaming call after a 429 (#4471)', async () => {
    const transport = new StreamingTransport(replies(429, 200))
    await expect(transport.stream({ url: '/events' })).resolves.toEqual({ status: 200 })
  })
})
