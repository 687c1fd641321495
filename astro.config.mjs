// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import collections from './src/compile/integration.ts';

export default defineConfig({
  output: 'static',
  outDir: process.env.DIST_DIR ?? 'dist',
  adapter: node({ mode: 'middleware' }),
  integrations: [collections()],
  // Dynamic surfaces are routed before Astro (server.ts); Astro only sees page requests.
  security: { checkOrigin: false },
  server: { port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? 'localhost' },
});
