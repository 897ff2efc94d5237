/**
 * The oldest Node.js Hangar runs on (package.json `engines`): 22.22.3 is the first release whose
 * `module.registerHooks` tsx uses in-thread. Checked before anything else is imported, because
 * on an older Node the first import that names registerHooks fails with a linking error that
 * does not say which Node is needed. This module imports nothing, so it loads on any Node.
 */
export const REQUIRED_NODE_VERSION = "22.22.3";

/** null when `found` (e.g. "v22.22.3" or "22.22.3") is new enough, else the message to print. */
export function nodeVersionProblem(found: string, required: string = REQUIRED_NODE_VERSION): string | null {
  const parts = (version: string) => version.replace(/^v/, "").split(/[.-]/).slice(0, 3).map(Number);
  const [have, want] = [parts(found), parts(required)];
  for (let index = 0; index < 3; index++) {
    const difference = (have[index] ?? 0) - (want[index] ?? 0);
    if (Number.isNaN(difference)) break;
    if (difference > 0) return null;
    if (difference < 0) {
      return (
        `Hangar needs Node.js ${required} or newer (found v${found.replace(/^v/, "")}); install it with ` +
        `nvm ("nvm install" reads .nvmrc), fnm ("fnm use" reads .node-version), Volta ("volta install node@${required.split(".")[0]}") ` +
        "or from https://nodejs.org/en/download"
      );
    }
  }
  return null;
}
