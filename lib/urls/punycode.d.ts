// punycode.js ships no types; "punycode/" (with the slash) is the npm package, not Node's deprecated built-in.
declare module "punycode/" {
  export function decode(input: string): string;
  export function encode(input: string): string;
}
