/**
 * The requests real clients send, written from their public sources (read, not copied):
 * Sparkles (benjifs/sparkles src/js/Editors/MediaEditor.js: a film as `watch-of`, a book
 * as `read-of` with `progress`, a rewatch), indiebookclub (gRegorLove/indiebookclub
 * app/Controller/IbcController.php `build_micropub_request`: `read-of` with
 * `read-status`, `post-status`, `visibility`) and OwnYourSwarm (aaronpk/OwnYourSwarm
 * lib/ProcessCheckin.php `checkinToHEntry`: a venue h-card, an h-adr `location`, person
 * tags as `category`, `syndication`). A second post of a kept record updates it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { client, served, sparklesWatch, startOwnerSite, type OwnerSite } from './site.ts';

let site: OwnerSite;
let mp: ReturnType<typeof client>;

before(async () => {
  site = await startOwnerSite('micropub-clients-');
  mp = client(site, site.mint(['create']));
});
after(() => site.stop());

test('Sparkles: a film, then its rewatch — one record, the newer watch date and rating', async () => {
  const first = await mp.json(sparklesWatch('The Matrix (Sparkles)', '1999'));
  assert.equal(first.status, 201);
  const again = await mp.json(sparklesWatch('The Matrix (Sparkles)', '1999', { published: ['2026-12-07'], rating: ['5'], rewatch: [true] }));
  assert.equal(again.status, 201);
  assert.equal(again.location, first.location, 'the same record');
  const film = await served(site, first.location!);
  assert.equal(film?.watchedAt, '2026-12-07');
  assert.equal(film?.rating, 5);
  assert.equal(film?.addedAt, '2026-12-06', 'added when first watched');
  const want = await mp.json(sparklesWatch('Unwatched', '2020', { progress: ['want'] }));
  assert.equal(want.status, 400);
});

test('Sparkles: a book with progress started, then finished', async () => {
  const book = (progress: string, published: string) => ({
    type: ['h-entry'],
    properties: {
      summary: [`${progress} Piranesi by Susanna Clarke`],
      published: [published],
      'read-of': [{ type: ['h-cite'], properties: { name: ['Piranesi'], author: ['Susanna Clarke'], uid: ['olid:OL20893680W'] } }],
      progress: [progress],
      ...(progress === 'finished' ? { rating: ['4'] } : {}),
    },
  });
  const started = await mp.json(book('started', '2026-11-20'));
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const finished = await mp.json(book('finished', '2026-12-01'));
  assert.equal(finished.location, started.location);
  const record = await served(site, started.location!);
  assert.equal(record?.status, 'finished');
  assert.equal(record?.startedAt, '2026-11-20');
  assert.equal(record?.finishedAt, '2026-12-01');
  assert.equal(record?.rating, 4);
});

test('indiebookclub: read-of with an ISBN and read-status; a private post is kept off every surface', async () => {
  const post = (title: string, visibility: string) => ({
    type: ['h-entry'],
    properties: {
      summary: [`Want to read: ${title} by Ursula K. Le Guin, ISBN: 9780441478125`],
      'read-status': ['to-read'],
      'read-of': [{ type: ['h-cite'], properties: { name: [title], author: ['Ursula K. Le Guin'], uid: ['isbn:9780441478125'] } }],
      'post-status': ['published'],
      visibility: [visibility],
      published: ['2026-12-07T09:15:00+00:00'],
      category: ['science fiction'],
    },
  });
  const created = await mp.json(post('The Word for World Is Forest', 'public'));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const book = await served(site, created.location!);
  assert.equal(book?.status, 'to-read');
  assert.equal(book?.isbn, '9780441478125');
  assert.deepEqual(book?.genres, ['science fiction']);
  // The demo content holds this book finished: a want-to-read post of it leaves its status as it is.
  const kept = await mp.json(post('The Left Hand of Darkness', 'public'));
  assert.equal(kept.status, 201);
  assert.equal((await served(site, kept.location!))?.status, 'finished');
  const hidden = await mp.json(post('The Lathe of Heaven (private)', 'private'));
  assert.equal(hidden.status, 201);
  assert.equal(await served(site, hidden.location!), undefined);
});

test('OwnYourSwarm: a check-in with an h-adr location, a person tag and a syndication link', async () => {
  const created = await mp.json({
    type: ['h-entry'],
    properties: {
      published: ['2026-12-06T13:05:00+01:00'],
      syndication: ['https://www.swarmapp.com/user/1234/checkin/5678'],
      content: ['Best flat white in town'],
      category: ['coffee', { type: ['h-card'], properties: { name: ['Aaron'], url: ['https://aaronparecki.com/'] }, value: 'https://aaronparecki.com/' }],
      checkin: [
        {
          type: ['h-card'],
          properties: {
            name: ['Swarm Roasters'],
            url: ['https://foursquare.com/v/5104f5a2e4b0a1c2d3e4f5a6', 'https://swarmroasters.example/'],
            tel: ['+49 30 1234567'],
            latitude: [52.4986],
            longitude: [13.4183],
            'street-address': ['Oranienstraße 1'],
            locality: ['Berlin'],
            region: ['Berlin'],
            'country-name': ['Germany'],
            'postal-code': ['10999'],
          },
          value: 'https://foursquare.com/v/5104f5a2e4b0a1c2d3e4f5a6',
        },
      ],
      location: [{ type: ['h-adr'], properties: { latitude: [52.4986], longitude: [13.4183], locality: ['Berlin'], 'country-name': ['Germany'] } }],
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const place = await served(site, created.location!);
  assert.equal(place?.name, 'Swarm Roasters');
  assert.equal(place?.category, 'coffee');
  assert.equal(place?.address, 'Oranienstraße 1');
  assert.equal(place?.website, 'https://swarmroasters.example/');
  assert.equal(place?.coordinatesSource, 'geocoded:foursquare');
  assert.equal(place?.notes, 'Best flat white in town');
  const incomplete = await mp.json({ type: ['h-entry'], properties: { checkin: [{ type: ['h-card'], properties: { name: ['Nowhere'] } }] } });
  assert.equal(incomplete.status, 400);
  assert.match(String(incomplete.body.error_description), /locality, country-name, latitude, longitude/);
});
