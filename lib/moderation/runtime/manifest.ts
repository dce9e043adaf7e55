/**
 * The neural models behind the moderation checks: which model the toolkit uses for each check,
 * where an ONNX export of it lives on the Hub, which files to fetch and where they go in the
 * transformers.js layout (`MODELS_DIR/<id>/{config.json, tokenizer*.json, onnx/model.onnx}`),
 * and how its raw output becomes the check's answer.
 *
 * Revisions are the commits llm-guard pins for the same models where it uses them; the others
 * follow `main` until someone pins them from a machine that can reach the Hub. `sha256`/`size`
 * are optional: without them `models:pull` trusts the Hub's own LFS digest (`X-Linked-Etag`)
 * and records what it got in the model folder's `.modhub-pull.json`.
 */

export type NeuralCheck =
  | 'toxicity'
  | 'promptInjection'
  | 'topic'
  | 'topicMini'
  | 'embedding'
  | 'gibberish'
  | 'bancode'

export const NEURAL_CHECKS: readonly NeuralCheck[] = [
  'toxicity',
  'promptInjection',
  'topic',
  'topicMini',
  'embedding',
  'gibberish',
  'bancode',
]

/** The order the toolkit's client reads the seven toxicity metrics in (by index). */
export const TOXICITY_METRICS = [
  'toxicity',
  'severe_toxicity',
  'obscene',
  'threat',
  'insult',
  'identity_attack',
  'sexual_explicit',
] as const

export const TOPIC_HYPOTHESIS_TEMPLATE = 'This text falls under and is strictly related to topic {}'

export type PostProcessing =
  /** Sigmoid per label, named metrics picked by label name; long texts split into token windows whose scores are averaged. */
  | { kind: 'windowedSigmoid'; metrics: readonly string[]; windowTokens: number }
  /** Softmax over the labels; the answer is the top label and its probability. */
  | { kind: 'softmax'; textCleanup?: 'codenlbert' }
  /** Multi-label zero-shot: per candidate label, softmax over (contradiction, entailment) of the premise/hypothesis pair. */
  | { kind: 'zeroShotEntailment'; hypothesisTemplate: string }
  /** Sentence embedding = the first token's hidden state, not normalised (a dot-product model). */
  | { kind: 'clsPooling'; normalize: false }

export interface ManifestFile {
  /** Path inside the source repository. */
  source: string
  /** Path inside `MODELS_DIR/<id>/`. */
  target: string
  size?: number
  sha256?: string
}

export interface ModelEntry {
  check: NeuralCheck
  /** The model the toolkit runs; also the folder under MODELS_DIR. */
  id: string
  revision: string
  /** The repository holding the ONNX export that is actually downloaded. */
  source: { repo: string; revision: string }
  files: ManifestFile[]
  /** Tokens per model input, special tokens included. */
  maxLength: number
  output: 'logits' | 'last_hidden_state'
  postProcessing: PostProcessing
}

const TOKENIZER_FILES: ManifestFile[] = [
  { source: 'config.json', target: 'config.json' },
  { source: 'tokenizer.json', target: 'tokenizer.json' },
  { source: 'tokenizer_config.json', target: 'tokenizer_config.json' },
]

/** ProtectAI's `*-onnx` repositories keep the graph at the root; transformers.js looks in `onnx/`. */
const rootGraph: ManifestFile[] = [...TOKENIZER_FILES, { source: 'model.onnx', target: 'onnx/model.onnx' }]
const onnxFolderGraph: ManifestFile[] = [...TOKENIZER_FILES, { source: 'onnx/model.onnx', target: 'onnx/model.onnx' }]

export const MODEL_MANIFEST: Record<NeuralCheck, ModelEntry> = {
  toxicity: {
    check: 'toxicity',
    id: 'unitary/unbiased-toxic-roberta',
    revision: '36295dd80b422dc49f40052021430dae76241adc',
    source: { repo: 'protectai/unbiased-toxic-roberta-onnx', revision: '34480fa958f6657ad835c345808475755b6974a7' },
    files: rootGraph,
    maxLength: 512,
    output: 'logits',
    // Its config says `function_to_apply: sigmoid` but has no problem_type, so a stock
    // text-classification pipeline would softmax the 16 logits; sigmoid is applied here.
    postProcessing: { kind: 'windowedSigmoid', metrics: TOXICITY_METRICS, windowTokens: 450 },
  },
  promptInjection: {
    check: 'promptInjection',
    id: 'deepset/deberta-v3-base-injection',
    revision: 'main',
    source: { repo: 'protectai/deberta-v3-base-injection-onnx', revision: 'main' },
    files: rootGraph,
    maxLength: 512,
    output: 'logits',
    postProcessing: { kind: 'softmax' },
  },
  topic: {
    check: 'topic',
    id: 'MoritzLaurer/deberta-v3-base-zeroshot-v2.0',
    revision: '8e7e5af5983a0ddb1a5b45a38b129ab69e2258e8',
    source: { repo: 'MoritzLaurer/deberta-v3-base-zeroshot-v2.0', revision: '8e7e5af5983a0ddb1a5b45a38b129ab69e2258e8' },
    files: onnxFolderGraph,
    maxLength: 512,
    output: 'logits',
    postProcessing: { kind: 'zeroShotEntailment', hypothesisTemplate: TOPIC_HYPOTHESIS_TEMPLATE },
  },
  topicMini: {
    check: 'topicMini',
    id: 'cross-encoder/nli-MiniLM2-L6-H768',
    revision: 'main',
    source: { repo: 'cross-encoder/nli-MiniLM2-L6-H768', revision: 'main' },
    files: onnxFolderGraph,
    maxLength: 512,
    output: 'logits',
    postProcessing: { kind: 'zeroShotEntailment', hypothesisTemplate: TOPIC_HYPOTHESIS_TEMPLATE },
  },
  embedding: {
    check: 'embedding',
    id: 'sentence-transformers/multi-qa-mpnet-base-dot-v1',
    revision: 'main',
    source: { repo: 'Xenova/multi-qa-mpnet-base-dot-v1', revision: 'main' },
    files: onnxFolderGraph,
    maxLength: 512,
    output: 'last_hidden_state',
    postProcessing: { kind: 'clsPooling', normalize: false },
  },
  gibberish: {
    check: 'gibberish',
    id: 'madhurjindal/autonlp-Gibberish-Detector-492513457',
    revision: 'fddf42c3008ad61cc481f90d02dd0712ba1ee2d8',
    source: {
      repo: 'madhurjindal/autonlp-Gibberish-Detector-492513457',
      revision: 'fddf42c3008ad61cc481f90d02dd0712ba1ee2d8',
    },
    files: onnxFolderGraph,
    maxLength: 512,
    output: 'logits',
    postProcessing: { kind: 'softmax' },
  },
  bancode: {
    check: 'bancode',
    id: 'vishnun/codenlbert-tiny',
    revision: '2caf5a621b29c50038ee081479a82f192e9a5e69',
    source: { repo: 'protectai/vishnun-codenlbert-tiny-onnx', revision: '84148cb4b3f08fe44705e2d8ed81505450ae8abd' },
    files: rootGraph,
    maxLength: 128,
    output: 'logits',
    postProcessing: { kind: 'softmax', textCleanup: 'codenlbert' },
  },
}

export function isNeuralCheck(value: string): value is NeuralCheck {
  return (NEURAL_CHECKS as readonly string[]).includes(value)
}
