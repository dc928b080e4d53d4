/**
 * The `.proto` tokenizer: a port of protoc's `io::Tokenizer`, because the descriptors must equal
 * protoc's, and two of its details show in them: columns (0-based, a tab advances to the next
 * multiple of 8) go into `source_code_info` spans, and `nextWithComments` decides which comment is
 * leading, trailing or detached exactly as protoc does.
 */
import { error } from '../core/diagnostics.js';

export type TokenType = 'start' | 'end' | 'identifier' | 'integer' | 'float' | 'string' | 'symbol';

export interface Token {
  type: TokenType;
  text: string;
  /** 0-based line. */
  line: number;
  /** 0-based column as protoc counts it (tabs to multiples of 8); used in spans. */
  column: number;
  /** Column just past the token, protoc style. */
  endColumn: number;
  /** 1-based column counting characters, for messages. */
  charColumn: number;
}

/** Comments collected around one token boundary, as protoc's `NextWithComments` splits them. */
export interface Comments {
  trailing: string;
  detached: string[];
  leading: string;
}

const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string) => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
const isOctal = (c: string) => c >= '0' && c <= '7';
const isWhitespaceNoNewline = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\v' || c === '\f';

/** protoc's CommentCollector: buffers one comment, flushing it as trailing or detached. */
class CommentCollector {
  trailing = '';
  detached: string[] = [];
  leading = '';
  private buffer = '';
  private hasComment = false;
  private isLineComment = false;
  private canAttachToPrev = true;
  private hasTrailingComment = false;
  private numComments = 0;

  startLineComment(): void {
    if (this.hasComment && !this.isLineComment) this.flush();
    this.hasComment = true;
    this.isLineComment = true;
  }

  startBlockComment(): void {
    if (this.hasComment) this.flush();
    this.hasComment = true;
    this.isLineComment = false;
  }

  append(text: string): void {
    this.buffer += text;
  }

  clearBuffer(): void {
    this.buffer = '';
    this.hasComment = false;
  }

  flush(): void {
    if (!this.hasComment) return;
    if (this.canAttachToPrev) {
      this.trailing += this.buffer;
      this.hasTrailingComment = true;
      this.canAttachToPrev = false;
    } else {
      this.detached.push(this.buffer);
    }
    this.clearBuffer();
    this.numComments++;
  }

  detachFromPrev(): void {
    this.canAttachToPrev = false;
  }

  maybeDetachComment(): void {
    let count = this.numComments;
    if (this.hasComment) count++;
    if (count === 1) {
      if (this.hasTrailingComment) {
        this.detached.unshift(this.trailing);
        this.trailing = '';
      }
      this.canAttachToPrev = false;
      this.flush();
    }
  }

  finish(): Comments {
    if (this.hasComment) this.leading = this.buffer;
    return { trailing: this.trailing, detached: this.detached, leading: this.leading };
  }
}

export class Tokenizer {
  current: Token;
  previous: Token;
  private pos = 0;
  private line = 0;
  private column = 0;
  private charColumn = 0;
  private char: string;
  /** Where recorded comment text starts, or -1. */
  private recordStart = -1;
  private recordTarget: CommentCollector | undefined;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    this.char = text.length > 0 ? text[0] : '\0';
    this.current = { type: 'start', text: '', line: 0, column: 0, endColumn: 0, charColumn: 1 };
    this.previous = this.current;
  }

  /** An error at the current character (or a given token). */
  fail(message: string, at?: { line: number; charColumn: number }, hint?: string): never {
    const where = at ?? { line: this.line, charColumn: this.charColumn + 1 };
    throw error(message, { file: this.file, line: where.line + 1, column: where.charColumn }, hint);
  }

  private nextChar(): void {
    if (this.char === '\n') {
      this.line++;
      this.column = 0;
      this.charColumn = 0;
    } else if (this.char === '\t') {
      this.column += 8 - (this.column % 8);
      this.charColumn++;
    } else {
      // protoc counts bytes: a character takes as many columns as its UTF-8 encoding.
      const code = this.char.charCodeAt(0);
      this.column += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 4 : code >= 0xdc00 && code <= 0xdfff ? 0 : 3;
      if (code < 0xdc00 || code > 0xdfff) this.charColumn++;
    }
    this.pos++;
    this.char = this.pos < this.text.length ? this.text[this.pos] : '\0';
  }

  private c(): string {
    return this.char;
  }

  private tryConsume(c: string): boolean {
    if (this.char === c && this.pos < this.text.length) {
      this.nextChar();
      return true;
    }
    return false;
  }

  private atEof(): boolean {
    return this.pos >= this.text.length;
  }

  private startRecording(target: CommentCollector): void {
    this.recordTarget = target;
    this.recordStart = this.pos;
  }

  private stopRecording(trim = 0): void {
    if (this.recordTarget && this.recordStart >= 0) this.recordTarget.append(this.text.slice(this.recordStart, this.pos - trim));
    this.recordTarget = undefined;
    this.recordStart = -1;
  }

  private skipWhitespaceNoNewline(): void {
    while (!this.atEof() && isWhitespaceNoNewline(this.char)) this.nextChar();
  }

  /** After `//`: the rest of the line, newline included. */
  private consumeLineComment(collector: CommentCollector | undefined): void {
    if (collector) this.startRecording(collector);
    while (!this.atEof() && this.char !== '\n') this.nextChar();
    this.tryConsume('\n');
    if (collector) this.stopRecording();
  }

  /** After `/*`: the text up to `*\/`, with the leading `*` of continuation lines removed. */
  private consumeBlockComment(collector: CommentCollector | undefined): void {
    const startLine = this.line;
    const startColumn = this.charColumn - 1;
    if (collector) this.startRecording(collector);
    for (;;) {
      while (!this.atEof() && this.char !== '*' && this.char !== '/' && this.char !== '\n') this.nextChar();
      if (this.tryConsume('\n')) {
        if (collector) this.stopRecording();
        this.skipWhitespaceNoNewline();
        if (this.tryConsume('*')) {
          if (this.tryConsume('/')) break;
        }
        if (collector) this.startRecording(collector);
      } else if (this.tryConsume('*') && this.tryConsume('/')) {
        if (collector) this.stopRecording(2);
        break;
      } else if (this.tryConsume('/') && this.char === '*') {
        this.fail(
          '"/*" inside block comment: block comments cannot be nested',
          undefined,
          'close the first comment with */ before starting another',
        );
      } else if (this.atEof()) {
        this.fail(
          'end of file inside a block comment',
          { line: startLine, charColumn: startColumn },
          'close the comment that starts here with */',
        );
      }
    }
  }

  /** `//`, `/*`, a lone `/` (a symbol) or no comment at all; consumes the comment start. */
  private tryConsumeCommentStart(): 'line' | 'block' | 'slash' | 'none' {
    if (this.char === '/' && !this.atEof()) {
      const next = this.text[this.pos + 1];
      if (next === '/') {
        this.nextChar();
        this.nextChar();
        return 'line';
      }
      if (next === '*') {
        this.nextChar();
        this.nextChar();
        return 'block';
      }
      // A lone slash is a symbol token; protoc reports it as SLASH_NOT_COMMENT after consuming it.
      this.startToken();
      this.nextChar();
      this.endToken('symbol');
      return 'slash';
    }
    return 'none';
  }

  private tokenStart = 0;
  private tokenLine = 0;
  private tokenColumn = 0;
  private tokenCharColumn = 0;

  private startToken(): void {
    this.tokenStart = this.pos;
    this.tokenLine = this.line;
    this.tokenColumn = this.column;
    this.tokenCharColumn = this.charColumn + 1;
  }

  private endToken(type: TokenType): void {
    this.previous = this.current;
    this.current = {
      type,
      text: this.text.slice(this.tokenStart, this.pos),
      line: this.tokenLine,
      column: this.tokenColumn,
      endColumn: this.column,
      charColumn: this.tokenCharColumn,
    };
  }

  /** Advances to the next token, skipping whitespace and comments. Returns false at the end. */
  next(): boolean {
    for (;;) {
      while (!this.atEof() && (isWhitespaceNoNewline(this.char) || this.char === '\n')) this.nextChar();
      const comment = this.tryConsumeCommentStart();
      if (comment === 'line') this.consumeLineComment(undefined);
      else if (comment === 'block') this.consumeBlockComment(undefined);
      else if (comment === 'slash') return true;
      else break;
    }
    if (this.atEof()) {
      this.previous = this.current;
      this.current = {
        type: 'end',
        text: '',
        line: this.line,
        column: this.column,
        endColumn: this.column,
        charColumn: this.charColumn + 1,
      };
      return false;
    }
    this.readToken();
    return true;
  }

  private readToken(): void {
    this.startToken();
    const c = this.char;
    if (isLetter(c)) {
      while (!this.atEof() && (isLetter(this.char) || isDigit(this.char))) this.nextChar();
      this.endToken('identifier');
    } else if (isDigit(c)) {
      this.endToken(this.consumeNumber(false));
    } else if (c === '.' && isDigit(this.text[this.pos + 1] ?? '')) {
      this.nextChar();
      this.endToken(this.consumeNumber(true));
    } else if (c === '"' || c === "'") {
      this.nextChar();
      this.consumeString(c);
      this.endToken('string');
    } else {
      if (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127) {
        this.fail(`invalid control character ${JSON.stringify(c)} in the input`, undefined, 'remove it; .proto files are plain text');
      }
      this.nextChar();
      this.endToken('symbol');
    }
  }

  private consumeNumber(startedWithDot: boolean): 'integer' | 'float' {
    let isFloat = false;
    if (startedWithDot) {
      isFloat = true;
      while (isDigit(this.c())) this.nextChar();
    } else if (this.c() === '0' && (this.text[this.pos + 1] === 'x' || this.text[this.pos + 1] === 'X')) {
      this.nextChar();
      this.nextChar();
      if (!isHex(this.c())) this.fail('"0x" must be followed by hex digits', undefined, 'write a hex number such as 0x1F');
      while (isHex(this.c())) this.nextChar();
    } else if (this.c() === '0') {
      this.nextChar();
      let octalError = false;
      while (isDigit(this.c())) {
        if (!isOctal(this.c())) octalError = true;
        this.nextChar();
      }
      if (this.c() === '.' || this.c() === 'e' || this.c() === 'E') {
        octalError = false;
        isFloat = this.consumeFraction();
      }
      if (octalError) this.fail('numbers starting with a leading zero must be in octal', undefined, 'remove the leading 0');
    } else {
      while (isDigit(this.c())) this.nextChar();
      if (this.c() === '.' || this.c() === 'e' || this.c() === 'E') isFloat = this.consumeFraction();
    }
    if (isLetter(this.c()) || (this.c() === '.' && !isFloat)) {
      this.fail('need space between number and identifier', undefined, 'separate the number from the name that follows it');
    }
    return isFloat ? 'float' : 'integer';
  }

  private consumeFraction(): boolean {
    if (this.tryConsume('.')) {
      while (isDigit(this.c())) this.nextChar();
    }
    if (this.c() === 'e' || this.c() === 'E') {
      this.nextChar();
      if (this.c() === '-' || this.c() === '+') this.nextChar();
      if (!isDigit(this.c())) this.fail('"e" must be followed by an exponent', undefined, 'write an exponent such as 1e10');
      while (isDigit(this.c())) this.nextChar();
    }
    return true;
  }

  private consumeString(delimiter: string): void {
    const start = { line: this.tokenLine, charColumn: this.tokenCharColumn };
    for (;;) {
      if (this.atEof() || this.char === '\n')
        this.fail(
          'string literal is not closed on its line',
          start,
          `close the string with ${delimiter} before the end of the line (strings cannot cross lines)`,
        );
      const c = this.char;
      if (c === '\\') {
        this.nextChar();
        const e = this.char;
        if ('abfnrtv\\?\'"'.includes(e)) this.nextChar();
        else if (isOctal(e)) this.nextChar();
        else if (e === 'x' || e === 'X') {
          this.nextChar();
          if (!isHex(this.char))
            this.fail('expected hex digits for escape sequence', undefined, 'write \\x followed by one or two hex digits');
        } else if (e === 'u' || e === 'U') {
          this.nextChar();
        } else this.fail('invalid escape sequence in string literal', undefined, 'escape a backslash as \\\\');
        continue;
      }
      this.nextChar();
      if (c === delimiter) return;
    }
  }

  /**
   * protoc's `NextWithComments`: advances like `next()` and splits the comments between the
   * previous token and the new one into the previous token's trailing comment, detached comments
   * and the new token's leading comment.
   */
  nextWithComments(): Comments {
    const collector = new CommentCollector();
    const prevLine = this.line;
    let trailingCommentEndLine = -1;
    if (this.current.type === 'start') {
      if (this.char === '\uFEFF') this.nextChar();
      collector.detachFromPrev();
    } else {
      this.skipWhitespaceNoNewline();
      const kind = this.tryConsumeCommentStart();
      if (kind === 'line') {
        trailingCommentEndLine = this.line;
        collector.startLineComment();
        this.consumeLineComment(collector);
        collector.flush();
      } else if (kind === 'block') {
        collector.startBlockComment();
        this.consumeBlockComment(collector);
        trailingCommentEndLine = this.line;
        this.skipWhitespaceNoNewline();
        if (!this.tryConsume('\n')) {
          collector.clearBuffer();
          this.next();
          return collector.finish();
        }
        collector.flush();
      } else if (kind === 'slash') {
        return collector.finish();
      } else if (!this.tryConsume('\n')) {
        this.next();
        return collector.finish();
      }
    }
    for (;;) {
      this.skipWhitespaceNoNewline();
      const kind = this.tryConsumeCommentStart();
      if (kind === 'line') {
        collector.startLineComment();
        this.consumeLineComment(collector);
      } else if (kind === 'block') {
        collector.startBlockComment();
        this.consumeBlockComment(collector);
        this.skipWhitespaceNoNewline();
        this.tryConsume('\n');
      } else if (kind === 'slash') {
        return collector.finish();
      } else if (this.tryConsume('\n')) {
        collector.flush();
        collector.detachFromPrev();
      } else {
        const result = this.next();
        if (!result || this.current.text === '}' || this.current.text === ']' || this.current.text === ')') collector.flush();
        if (result && (prevLine === this.line || trailingCommentEndLine === this.line)) collector.maybeDetachComment();
        return collector.finish();
      }
    }
  }
}

/** Decodes a string literal token's text (quotes included) to its UTF-8 bytes. */
export function stringBytes(text: string): number[] {
  const out: number[] = [];
  const push = (s: string) => {
    for (const b of Buffer.from(s, 'utf8')) out.push(b);
  };
  let i = 1;
  const end = text.length - 1;
  while (i < end) {
    const c = text[i];
    if (c !== '\\') {
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      push(ch);
      i += ch.length;
      continue;
    }
    i++;
    const e = text[i];
    const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '?': 63, "'": 39, '"': 34 };
    if (e in simple) {
      out.push(simple[e]);
      i++;
    } else if (isOctal(e)) {
      let digits = '';
      while (digits.length < 3 && i < end && isOctal(text[i])) digits += text[i++];
      out.push(parseInt(digits, 8) & 0xff);
    } else if (e === 'x' || e === 'X') {
      i++;
      let digits = '';
      while (digits.length < 2 && i < end && isHex(text[i])) digits += text[i++];
      out.push(parseInt(digits, 16));
    } else if (e === 'u' || e === 'U') {
      const count = e === 'u' ? 4 : 8;
      i++;
      let digits = '';
      while (digits.length < count && i < end && isHex(text[i])) digits += text[i++];
      push(String.fromCodePoint(parseInt(digits, 16)));
    } else {
      out.push(e.charCodeAt(0));
      i++;
    }
  }
  return out;
}

/** A string literal's value as text (UTF-8 decoded). */
export function stringValue(text: string): string {
  return Buffer.from(stringBytes(text)).toString('utf8');
}
