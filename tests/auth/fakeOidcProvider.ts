import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export type FakeIdentity = { sub: string; email: string; name: string };

/**
 * A small OpenID Connect provider on 127.0.0.1: discovery, an authorization
 * endpoint that signs the configured identity in at once, a token endpoint
 * issuing RS256 ID tokens, JWKS and userinfo. Enough for Better Auth's
 * generic OAuth plugin to run the whole authorization-code flow with PKCE.
 */
export async function startFakeOidcProvider(clientId: string, clientSecret: string) {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  let identity: FakeIdentity = { sub: "user-1", email: "sso.user@example.com", name: "Sso User" };
  const codes = new Map<string, { nonce: string | null; challenge: string | null }>();
  const tokenRequests: URLSearchParams[] = [];
  let issuer = "";

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/.well-known/openid-configuration")
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
      });
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const code = `code-${codes.size + 1}`;
      codes.set(code, { nonce: url.searchParams.get("nonce"), challenge: url.searchParams.get("code_challenge") });
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/userinfo") return json(200, { ...identity, email_verified: true });
    if (url.pathname === "/token" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        tokenRequests.push(form);
        const basic = req.headers.authorization?.replace(/^Basic /, "");
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        const grant = codes.get(form.get("code") ?? "");
        if (id !== clientId || secret !== clientSecret || !grant) return json(400, { error: "invalid_grant" });
        void new SignJWT({ ...identity, email_verified: true, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
          .setProtectedHeader({ alg: "RS256", kid: "test-key" })
          .setIssuer(issuer)
          .setAudience(clientId)
          .setSubject(identity.sub)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey)
          .then((idToken) =>
            json(200, { access_token: "access-1", token_type: "Bearer", expires_in: 300, id_token: idToken }),
          );
      });
      return;
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    tokenRequests,
    signInAs: (next: FakeIdentity) => {
      identity = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
