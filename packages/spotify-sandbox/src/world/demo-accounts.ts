import type { SandboxAccount } from './account';

/**
 * The fixed cast of the first sandbox slice. The seeded world generator replaces this module;
 * until then these are the people who can log in. Mostly premium, two free accounts.
 */
export const DEMO_ACCOUNTS: readonly SandboxAccount[] = [
  {
    id: 'maralindqvist',
    accountId: 'Qm7tR2vLx9',
    displayName: 'Mara Lindqvist',
    email: 'mara.lindqvist@example.com',
    product: 'premium',
    country: 'SE',
    followers: 214,
    explicitContent: { filterEnabled: false, filterLocked: false },
  },
  {
    id: '31kzt4wq7yv2jhd6ncx3bfrm5lpa',
    accountId: 'bT4nW8cKe2',
    displayName: 'Tomás Ferreira',
    email: 'tomas.ferreira@example.com',
    product: 'premium',
    country: 'PT',
    followers: 58,
    explicitContent: { filterEnabled: false, filterLocked: false },
  },
  {
    id: '11183207465',
    accountId: 'Hx2pD6gZs5',
    displayName: 'Aiko Tanaka',
    email: 'aiko.tanaka@example.com',
    product: 'free',
    country: 'JP',
    followers: 12,
    explicitContent: { filterEnabled: false, filterLocked: false },
  },
  {
    id: 'chidiokafor',
    accountId: 'Lr9eY3uNa7',
    displayName: 'Chidi Okafor',
    email: 'chidi.okafor@example.com',
    product: 'premium',
    country: 'NG',
    followers: 1032,
    explicitContent: { filterEnabled: false, filterLocked: false },
  },
  {
    id: '31ugbq6xn2r7cfy4d5kzsmhwtaoe',
    accountId: 'Fv5jS1mQc8',
    displayName: 'Priya Raman',
    email: 'priya.raman@example.com',
    product: 'free',
    country: 'IN',
    followers: 7,
    explicitContent: { filterEnabled: true, filterLocked: false },
  },
  {
    id: 'jonasbrandt',
    accountId: 'Wd8kB4hTy6',
    displayName: 'Jonas Brandt',
    email: 'jonas.brandt@example.com',
    product: 'premium',
    country: 'DE',
    followers: 89,
    explicitContent: { filterEnabled: true, filterLocked: true },
  },
];
