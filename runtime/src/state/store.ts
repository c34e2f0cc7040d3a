/**
 * The one jotai store. Plain modules (the API client) write to it as well as components, so it is
 * created here and handed to <Provider store>, instead of relying on jotai's implicit default store.
 */
import { createStore } from 'jotai';

export const store = createStore();
