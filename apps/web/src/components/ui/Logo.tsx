import { PRODUCT_NAME } from '@earshot/contract/site';

/** The Earshot mark and wordmark. */
export function Logo() {
  return (
    <span className="logo">
      <img className="logo__mark" src="/logo.svg" alt="" width={28} height={28} />
      <span className="logo__wordmark">{PRODUCT_NAME}</span>
    </span>
  );
}
