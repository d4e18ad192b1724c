// Verify a Dragoman webhook delivery (README example).
//
// Run with a vectors file to check the example against the recorded
// vectors: node verify.js vectors.json
"use strict";
const crypto = require("crypto");

// verify is true only if header is the signature of the raw body (a Buffer
// or string, exactly as received) under secret.
function verify(secret, body, header) {
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const expected = Buffer.from(
    "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex"));
  const got = Buffer.from(header);
  return got.length === expected.length && crypto.timingSafeEqual(got, expected);
}

module.exports = { verify };

if (require.main === module) {
  const vectors = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
  let failures = 0;
  for (const v of vectors) {
    const got = verify(v.secret, Buffer.from(v.body, "utf8"), v.header || undefined);
    if (got !== v.valid) {
      failures++;
      console.log(`FAIL ${v.name}: got ${got}, want ${v.valid}`);
    }
  }
  console.log(`node: ${vectors.length} vectors, ${failures} failures`);
  process.exit(failures ? 1 : 0);
}
