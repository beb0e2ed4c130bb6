import { truncate } from '../src/truncate'

describe('truncate', () => {
  it('keeps a text shorter than max', () => {
    const text: string = 'hi'
    expect(truncate(text, 5)).toBe('hi')
  })

  it('keeps a text of exactly max', () => {
    expect(truncate('hello', 5)).toBe('hello')
  })

  it('cuts a longer text to max, the ellipsis included (#3)', () => {
    expect(truncate('hello world', 5)).toBe('hell…')
  })
})
