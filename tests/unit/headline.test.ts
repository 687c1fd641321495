/**
 * A record's one-line title, as feeds, search hits and MCP lists show it: whitespace
 * runs become one space, and a long text is cut to its first code points with an
 * ellipsis — never inside a surrogate pair, whatever the text holds.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from '../helpers/fc.ts';
import { headline } from '../../src/collections/headline.ts';

const TWEET_MAX = 100;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
// Text mixing spaces, newlines, ASCII and astral characters (emoji are two UTF-16 units).
const text = fc.array(fc.constantFrom('a', 'é', ' ', '\n', '\t', '😀', '𝄞', 'x y'), { maxLength: 260, size: 'max' }).map((parts) => parts.join(''));

test('a tweet headline is the text on one line, cut to 100 code points with an ellipsis', () => {
  fc.assert(
    fc.property(text, (t) => {
      const line = oneLine(t);
      const title = headline('tweets', { text: t });
      const points = [...line];
      if (points.length <= TWEET_MAX) {
        assert.equal(title, line);
      } else {
        assert.equal([...title].length, TWEET_MAX);
        assert.ok(title.endsWith('…'));
        assert.equal(title, `${points.slice(0, TWEET_MAX - 1).join('')}…`);
      }
      assert.ok(!/\s\s/.test(title));
      assert.ok(title.isWellFormed());
    }),
  );
});
