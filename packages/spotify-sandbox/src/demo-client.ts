/** Earshot's public client (authorization code + PKCE, no secret) in the sandbox. */
export const DEMO_CLIENT_ID = 'earshot-demo';
