/// <reference types="vitest/config" />
import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
  ],
  build: { manifest: true, target: 'es2022', sourcemap: false },
  server: { proxy: { '/api': 'http://localhost:8080', '/cms': 'http://localhost:8080', '/sandbox': 'http://localhost:8080' } },
  test: {
    environment: 'jsdom',
    include: ['tests/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/setup.ts'],
    testTimeout: 20000,
    hookTimeout: 60000,
  },
});
