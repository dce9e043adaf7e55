// Rotates the OpenID Connect signing key: new id_tokens are signed with a fresh RS256 key, and the
// old ones stay in the JWKS so tokens already issued still verify.
import { rotateSigningKey } from '@/lib/oauth/keys'

rotateSigningKey()
  .then((kid) => {
    console.log(`new signing key ${kid}; earlier keys stay published for verification`)
    process.exit(0)
  })
  .catch((error) => {
    console.error(error)
    process.exit(1)
  })
