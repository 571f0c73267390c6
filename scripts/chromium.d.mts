export interface FoundChromium {
  path: string;
  source: 'FENCESIM_CHROMIUM' | 'CHROME_PATH' | 'PATH' | 'application bundle';
}
export function findChromium(env?: NodeJS.ProcessEnv): FoundChromium | null;
export function chromiumVersion(path: string): string;
export function ensureChromium(): FoundChromium | null;
