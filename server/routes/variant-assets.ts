/**
 * GET /api/ui/assets/{file}: a branding image (logo, favicon) of the variant serving the request
 * (docs/variants.md). Only the files the variant's `app.branding` names are served, read from its
 * own assets/ folder, so a host of one variant never gets another variant's images, and the file
 * name is never a path (the configuration compiler checked the names and that the files exist).
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { variantAssetsDir } from '../config/load-bundle.ts';
import { HttpError } from '../http-error.ts';
import { installIconFiles, webAppManifest } from '../init/manifest.ts';

const TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.webp': 'image/webp', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
};

export default async function variantAssetRoutes(app: FastifyInstance, options: { root: string }) {
  app.get<{ Params: { file: string } }>('/api/ui/assets/:file', {
    config: { access: 'public', operation: { resource: 'init', action: 'brandingImage', summary: "A branding image (logo or favicon) of the request's variant" } },
    schema: {
      description: "A branding image of the request's client variant (its logo or favicon).",
      params: { type: 'object', required: ['file'], properties: { file: { type: 'string', maxLength: 120 } } },
      response: {
        200: {
          description: 'The image',
          content: Object.fromEntries([...new Set(Object.values(TYPES))].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
        },
        404: { $ref: 'error-response#' },
      },
    },
    handler: async (request, reply) => {
      const { bundle } = app.config;
      const branding = (bundle.app.branding ?? {}) as { logo?: string; favicon?: string };
      const file = request.params.file;
      if (file !== branding.logo && file !== branding.favicon && !installIconFiles(bundle).includes(file)) throw new HttpError(404, app.config.t('errors:notFound'));
      // the compiler checked the file at load; one removed since answers as absent, not with a 500
      const body = await readFile(join(variantAssetsDir(options.root, bundle.variant), file)).catch(() => {
        throw new HttpError(404, app.config.t('errors:notFound'));
      });
      return reply
        .type(TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream')
        // one URL serves each host its own variant's file: caches must keep them apart
        .header('vary', 'Host, Authorization')
        .header('cache-control', 'public, max-age=300')
        // an SVG opened on its own runs no script of its own
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(body);
    },
  });

  // the web app manifest (issue 47, init/manifest.ts): linked from every page (runtime/index.html)
  app.get('/api/ui/manifest', {
    config: { access: 'public', operation: { resource: 'init', action: 'webAppManifest', summary: "The web app manifest of the request's variant (installing the portal on a phone)" } },
    schema: {
      description: "The web app manifest of the request's client variant, its description in the caller's language; 404 when the variant declares no installation (app.install).",
      response: {
        200: { description: 'The manifest', content: { 'application/manifest+json': { schema: { type: 'object', additionalProperties: true } } } },
        404: { $ref: 'error-response#' },
      },
    },
    handler: async (_request, reply) => {
      const { bundle, t, language } = app.config;
      const manifest = webAppManifest(bundle, t, language.id);
      if (!manifest) throw new HttpError(404, t('errors:notFound'));
      return reply
        .type('application/manifest+json; charset=utf-8')
        .header('vary', 'Host, Accept-Language, Cookie')
        .header('cache-control', 'no-cache')
        .send(JSON.stringify(manifest));
    },
  });
}
