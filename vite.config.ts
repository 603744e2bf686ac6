import path from 'node:path';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const BRAND_VIOLET = '#7c3aed';

// The client lives in src/client; the server serves dist/client on the same port.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  resolve: {
    // Zod without its eval probe in the browser (src/client/lib/zod-jitless.ts); the server keeps the JIT.
    alias: [{ find: /^zod$/, replacement: path.resolve(import.meta.dirname, 'src/client/lib/zod-jitless.ts') }],
  },
  plugins: [
    react(),
    tailwindcss(),
    // The web manifest and a Workbox service worker (decision 013). 'prompt': a new release waits
    // until the person accepts 'New version available' (features/install/service-worker.ts).
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Reelsmith — AI video generator',
        short_name: 'Reelsmith',
        description: 'Turn an image, video or audio and a short description into a short AI video.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: BRAND_VIOLET,
        background_color: '#18161f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell and hashed assets only; API answers and media never enter a cache.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/readyz/, /^\/healthz/],
        cleanupOutdatedCaches: true,
        // The uploader chunk is the largest file (about 260 kB); nothing bigger belongs in the shell.
        maximumFileSizeToCacheInBytes: 1024 * 1024,
        runtimeCaching: [],
      },
    }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // Names each route's chunk and its imports, so bench/route-js-size.ts can weigh a route.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
