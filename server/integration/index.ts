/**
 * Integration accounts and keys (issue 34): what other parts of the server use. Imports and
 * webhooks ask `mayImport(request, name)`, `mayUseWebhooks(request)` and `keyCoversClient(request,
 * symbol)`; `request.integration` is the key (null for a person), `request.session` its session.
 */
export { mayImport, mayUseWebhooks, keyCoversClient, availableScopes, readScope, importScope, WEBHOOKS_SCOPE } from './scopes.ts';
export { KEY_USER_ID } from './principal.ts';
