import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchedWrites } from './batched-writes.ts';

test('items are written `size` to a statement as they come, the rest when the round settles', async () => {
  const written: number[][] = [];
  const writes = new BatchedWrites<number>(async (items) => void written.push(items), 3);
  for (let i = 1; i <= 7; i++) writes.add(i);
  assert.deepEqual(written, [[1, 2, 3], [4, 5, 6]], 'two full statements sent while items came');
  await writes.settle();
  assert.deepEqual(written, [[1, 2, 3], [4, 5, 6], [7]]);
  await writes.settle();
  assert.equal(written.length, 3, 'nothing left to write');
});

test('settle waits for the writes under way and throws the first failure once', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const done: string[] = [];
  const writes = new BatchedWrites<string>(async (items) => {
    if (items[0] === 'bad') throw new Error('refused');
    await held;
    done.push(...items);
  }, 1);
  writes.add('a');
  writes.add('bad');
  const settled = writes.settle();
  release();
  await assert.rejects(settled, /refused/);
  assert.deepEqual(done, ['a'], 'the other write finished before settle answered');
  await writes.settle();
});

test('a round that runs long still writes what it gathered after maxWaitMs', async () => {
  let wrote!: (items: number[]) => void;
  const written = new Promise<number[]>((resolve) => (wrote = resolve));
  const writes = new BatchedWrites<number>(async (items) => wrote(items), 100, 1);
  writes.add(42);
  assert.deepEqual(await written, [42]);
  await writes.settle();
});
