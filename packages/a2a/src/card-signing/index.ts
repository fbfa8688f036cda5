// Signed agent cards (specification 1.0 §8.4): the canonical form, signing with a private JWK, verifying with public
// keys.
export { CardShapeError, canonicalAgentCard, signedContent, uncoveredFields } from './canonical.js';
export {
  algorithmOf,
  CARD_ALGORITHMS,
  CardKeyError,
  type CardSigner,
  type CardSigningOptions,
  type CardVerification,
  type CardVerificationKeys,
  cardSigner,
  MAX_SIGNED_CARD_BYTES,
  parseKeys,
  publicJwk,
  type SignatureVerdict,
  signAgentCard,
  verifyAgentCard,
} from './signing.js';
