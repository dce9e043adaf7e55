/**
 * The one error type of this module. `kind` says where the problem is:
 * - `config`: the configuration cannot describe a working Transformer2DModel (raised at construction);
 * - `checkpoint`: the weights on disk do not fit the configuration;
 * - `input`: the arguments of one forward call do not fit the model.
 */
export type Transformer2DErrorKind = 'config' | 'checkpoint' | 'input'

export class Transformer2DError extends Error {
  constructor(
    readonly kind: Transformer2DErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'Transformer2DError'
  }
}
