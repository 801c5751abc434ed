// `npm start`'s first step (package.json `prestart`): refuse a listening address
// that needs an auth secret before anything slow runs, so a refused start says
// why in a second instead of after a production build. scripts/serve.ts checks
// again (it is also what `npm run dev` runs).
import { decideListenHost } from "../lib/server/listenHost";
import { checkOidcAtStart } from "../lib/server/oidcStartCheck";

const decision = decideListenHost(process.env);
if (!decision.ok) {
  console.error(`[assay] ${decision.message}`);
  process.exit(1);
}
const oidc = checkOidcAtStart(process.env);
if (!oidc.ok) {
  console.error(`[assay] ${oidc.message}`);
  process.exit(1);
}
