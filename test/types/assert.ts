/** Compile-time assertions: `expectType<Equal<A, B>>(true)` fails to type-check unless A and B are the same type. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function expectType<_Check extends true>(_value: true): void {}
