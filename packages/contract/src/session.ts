/**
 * A cookie scripts may read, set and cleared with the (HttpOnly) session cookie: while it is
 * absent the web app knows the browser is a visitor's without asking `GET /api/user/me`, whose 401
 * every visitor's first page would otherwise log as a console error.
 */
export const SIGNED_IN_COOKIE = 'earshot_signed_in';
