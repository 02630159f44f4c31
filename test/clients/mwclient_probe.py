"""Drive mwclient (Debian's python3-mwclient 0.10.1) against a running wikiquery server.

Usage: /usr/bin/python3 mwclient_probe.py PORT
Prints one JSON object with what each mwclient call returned; test/clients.test.ts compares it with the
server's own listings. Exit code 3 when mwclient is not installed (the test then skips this client).
Only mwclient's public API is used: Site(), allcategories(), allimages() (generator form),
categories[...], images[...].duplicatefiles(), Image.imageinfo/imagerepository/download(),
Image.imageusage(), Page.text(), Page.links()/templates()/backlinks()/categories()/langlinks()/extlinks()/
embeddedin(), get_token(), search(), ask(), and the raw request methods get()/api().
"""
import hashlib
import json
import logging
import sys

try:
    import mwclient
    import mwclient.errors
    import mwclient.listing
except ImportError:
    sys.stderr.write('mwclient is not installed\n')
    sys.exit(3)

# mwclient logs every API warning at WARNING level; keep them (the test shows them on failure)
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)


def main(port, category, page_title, image_name, subject, sf_property, sf_substr, msg_prefix, ask_query, search):
    out = {'version': mwclient.__version__}
    # 0.10.1 builds the URL as scheme://host + path + 'api' + '.php'
    site = mwclient.Site('127.0.0.1:%s' % port, path='/', scheme='http')
    out['site'] = {'generator': site.site['generator'], 'version': list(site.version[:3]),
                   'rights': site.rights, 'namespaces': {str(k): v for k, v in site.namespaces.items()}}

    # all categories through continuation (7 per request)
    out['categories'] = [c.name for c in site.allcategories(limit=7)]

    # all images (generator form: prop=info|imageinfo), 7 per request, with their duplicates
    images = []
    for img in site.allimages(limit=7):
        images.append({
            'name': img.name,
            'exists': img.exists,
            'imagerepository': img.imagerepository,
            'sha1': img.imageinfo.get('sha1'),
            'url': img.imageinfo.get('url'),
            'size': img.imageinfo.get('size'),
        })
    out['images'] = images
    dups = {}
    for img in images:
        title = img['name'].split(':', 1)[1]
        dups[title] = [d['name'] for d in site.images[title].duplicatefiles(limit=1)]
    out['duplicates'] = dups

    # the bytes behind imageinfo's url
    image = site.images[image_name]
    data = image.download()
    out['download'] = {'url': image.imageinfo['url'], 'length': len(data), 'sha1': hashlib.sha1(data).hexdigest(),
                       'imageinfo_sha1': image.imageinfo['sha1']}
    out['imageusage'] = [p.name for p in image.imageusage(limit=3)]

    # category members (generator=categorymembers, prop=info|imageinfo), 10 per request
    cat = site.categories[category]
    out['members'] = [m['title'] for m in cat.members(generator=False, prop='ids|title')]
    out['member_pages'] = [p.name for p in cat]

    out['text'] = site.pages[page_title].text()

    # the page's relations through mwclient's own Page methods (generator forms where mwclient has them)
    page = site.pages[page_title]
    out['relations'] = {
        'links': [p.name for p in page.links()],
        'templates': [p.name for p in page.templates()],
        'backlinks': [p.name for p in page.backlinks(limit=3)],
        'categories': [p.name for p in page.categories()],
        'langlinks': [list(x) for x in page.langlinks()],
        'extlinks': list(page.extlinks()),
        'embeddedin': [p.name for p in site.pages['Шаблон:Прапор'].embeddedin(limit=4)],
    }
    out['token'] = site.get_token('csrf')

    # modules that may still be missing from the server: an API error is recorded, not raised
    def attempt(key, fn):
        try:
            out[key] = fn()
        except mwclient.errors.APIError as e:
            out[key] = {'apierror': e.code, 'info': e.info}

    # interface messages and a query page through the raw request method (continuation by hand)
    attempt('messages', lambda: site.get('query', meta='allmessages', amprefix=msg_prefix)['query']['allmessages'])

    def querypage():
        results = []
        cont = {'continue': ''}
        while True:
            r = site.get('query', list='querypage', qppage='Ancientpages', qplimit=50, **cont)
            results.extend(r['query']['querypage']['results'])
            if 'continue' not in r:
                return results
            cont = r['continue']
    attempt('querypage', querypage)
    attempt('parse', lambda: site.parse(page=page_title))
    # full-text search with sroffset continuation, 7 per request
    attempt('search', lambda: [r['title'] for r in site.search(search, limit=7)])
    attempt('browsebysubject', lambda: site.get('browsebysubject', subject=subject))
    attempt('sfautocomplete', lambda: site.get('sfautocomplete', property=sf_property, substr=sf_substr))
    # Site.ask() appends |offset=N and follows query-continue-offset; it yields each result object
    attempt('ask', lambda: list(site.ask(ask_query)))
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == '__main__':
    main(*sys.argv[1:])
