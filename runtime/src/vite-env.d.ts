/// <reference types="vite/client" />

/** screens/app.json config's locale, timeZone and currency, built in (runtime/configured-formats.ts). */
declare const __FORMAT_DEFAULTS__: { locale: string; timeZone: string; currency: string; datePattern: string };
