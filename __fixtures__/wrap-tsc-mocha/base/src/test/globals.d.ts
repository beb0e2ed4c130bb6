// mocha's globals, without @types/mocha.
declare function describe(title: string, body: () => void): void
declare function it(title: string, body: () => void): void
declare function test(title: string, body: () => void): void
