import path from 'node:path';

import tailwindcss from '@tailwindcss/vite';
import babel from '@rolldown/plugin-babel';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

import { appChunkName } from './scripts/client-chunks';

const BRAND_VIOLET = '#7c3aed';

/**
 * The entry (main.tsx) is small and imports the app (app/boot.tsx) dynamically, so it can ask who
 * is signed in before React has loaded. These links let the browser fetch the app and everything it
 * imports at once, with the entry, instead of after the entry has run.
 */
function preloadApp(): Plugin {
  return {
    name: 'reelsmith:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return undefined;
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const boot = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/app/boot.tsx'));
        if (!boot) throw new Error('the build has no app/boot.tsx chunk to preload');
        const entry = chunks.find((chunk) => chunk.isEntry);
        const preloadedByVite = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || preloadedByVite.has(fileName)) return;
          files.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(boot.fileName);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

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
    // React Compiler: components re-render only where their inputs changed. Without it every answer
    // that reaches a page (a query, a live event) re-rendered the whole page at once (decision 013).
    babel({ presets: [reactCompilerPreset()] }),
    preloadApp(),
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
        // The worker controls the tab that installed it at once (not only after a reload), so a
        // notification's click can send that tab to the video.
        clientsClaim: true,
        // Web Push: shows the server's 'video ready' messages (src/client/public/push-sw.js).
        importScripts: ['/push-sw.js'],
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
    rolldownOptions: {
      output: {
        // A few chunks instead of dozens of one-icon files: each file is a request, and on a phone's
        // connection every request costs a round trip before the page can render (decision 013).
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|wouter|regexparam|use-sync-external-store|tailwind-merge|clsx|class-variance-authority|lucide-react|@radix-ui[\\/]react-(slot|compose-refs))[\\/]/,
              priority: 3,
            },
            {
              name: 'radix',
              test: /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll|react-remove-scroll-bar|aria-hidden|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|tslib)[\\/]/,
              priority: 2,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
            // Our own modules in a few files (scripts/client-chunks.ts), with minShareCount 2 so a
            // module only one page (or lazy part) uses stays in that page's own file.
            {
              name: appChunkName(path.resolve(import.meta.dirname, 'src/client')),
              debugName: 'app',
              priority: 1,
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
