import type { ModerationEngine } from './types'

/**
 * Stands in for a check whose neural model is not installed and that has no offline engine yet.
 * `pullName` is the argument of `npm run models:pull` that installs the model.
 */
export class ModelNotInstalledEngine<Input, Output> implements ModerationEngine<Input, Output> {
  readonly name = 'none'
  constructor(readonly pullName: string) {}

  available(): boolean {
    return false
  }

  run(): Promise<Output> {
    return Promise.reject(new Error(this.installHint()))
  }

  installHint(): string {
    return `model not installed: run \`npm run models:pull ${this.pullName}\``
  }
}
