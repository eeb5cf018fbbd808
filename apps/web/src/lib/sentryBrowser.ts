/**
 * The part of Sentry's browser SDK Earshot uses, imported on demand by errorReporting.ts. Named
 * imports let the bundler leave the rest out (a namespace import would keep all of it: replay,
 * feedback, tracing).
 */
export { captureException, init, setUser } from '@sentry/browser';
