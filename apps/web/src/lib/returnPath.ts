import { returnPath } from '@earshot/contract/spotify';

/** `candidate` when it is a path on this site (the contract's rule), else `/`. */
export function safeReturnPath(candidate: string | null): string {
  const parsed = returnPath.safeParse(candidate);
  return parsed.success ? parsed.data : '/';
}
