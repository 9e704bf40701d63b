#!/usr/bin/env python3
"""Test fixtures made by a real mail library (Python's email package).

make SHAPE OUT FROM FILE [SIG] [QUOTED] [--also=FILE]...
                                          write one message in SHAPE (attach and inline carry
                                          each --also file too, as a second attachment or
                                          pasted after the first file):
    attach     the file and its signature as base64 attachments (hostile file names)
    inline     the file and signature pasted in a quoted-printable text/plain body
    reply      like inline, quoting an earlier message's file below with "> "
    html       the same text in an HTML-only body
    conflict   two different files in one message (FILE and QUOTED, each with SIG)
    nosig      the file alone, without its signature
    chat       a plain message with no file at all
    vacation   an out-of-office auto-reply (Auto-Submitted) pasting FILE and SIG
  Client shapes (as the named clients write them):
    thunderbird  pasted into a format=flowed body (RFC 3676, DelSp=no), wrapped at 72 columns
                 at spaces, lines space-stuffed: Thunderbird's default composition
    applemail    pasted into format=flowed; delsp=yes, wrapped at 76 columns anywhere (even
                 inside a word), as Apple Mail does
    refold64     pasted, the signature armor re-folded at 64 columns (PEM width)
    refold76     pasted, the signature armor re-folded at 76 columns (MIME width), CRLF
    latin1       the UTF-8 file attached as text/plain labelled charset=iso-8859-1
    forward      the "attach" message forwarded as an attachment (message/rfc822)
    outlook      pasted into an 8-bit windows-1252 body with accented text around it
mbox OUT EML...                           join messages into an mbox
retar IN OUT MODE                         a damaged copy of a game bundle (game.tar.gz):
    move      the first move's text changed (its signature no longer fits)
    reveal    a revealed setup changed (it no longer opens its commitment)
    manifest  another game's manifest
    traverse  an extra entry named ../escaped
    symlink   an extra entry that is a symbolic link
attachments EML OUTDIR NAME...            save the named attachments of a message
seven-bit IN OUT                          the message with every quoted-printable or base64
                                          text part re-encoded 7bit (its lines as they are,
                                          CRLF on the wire), as a client re-encodes what it
                                          forwards; nothing else changes
"""
import base64
import mailbox
import sys
from email.mime.base import MIMEBase
from email.message import EmailMessage
from email import policy
from email.parser import BytesParser


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def base(sender, subject):
    m = EmailMessage()
    m["From"] = sender
    m["To"] = "judge@example.org"
    m["Subject"] = subject
    m["Date"] = "Sat, 01 Jan 2000 00:00:00 +0000"  # a sender's clock: never trusted
    m["Message-ID"] = "<%s.%d@example.org>" % (subject.replace(" ", "-"), abs(hash(subject)) % 100000)
    return m


def flow(text, width, delsp):
    """RFC 3676 format=flowed encoding of TEXT (LF line ends)."""
    out = []
    for line in text.split("\n"):
        if line.startswith((" ", ">", "From ")):
            line = " " + line  # space-stuffing
        while len(line) > width:
            if delsp:
                # Apple Mail: a break anywhere, marked by an added space that the reader deletes.
                cut = width - 1
                out.append(line[:cut] + " ")
                line = line[cut:]
                if line.startswith((" ", ">", "From ")):
                    line = " " + line
            else:
                # Thunderbird: a break after a space, which stays at the end of the line.
                cut = line.rfind(" ", 0, width)
                if cut <= 0:
                    break
                out.append(line[:cut + 1])
                line = line[cut + 1:]
                if line.startswith((" ", ">", "From ")):
                    line = " " + line
        out.append(line)
    return "\n".join(out)


def refold(signature, width):
    lines = signature.strip().split("\n")
    body = "".join(lines[1:-1])
    return "\n".join([lines[0]] + [body[i:i + width] for i in range(0, len(body), width)]
                     + [lines[-1]]) + "\n"


def make(shape, out, sender, file, sig=None, quoted=None, also=()):
    with open(file, "rb") as f:
        raw = f.read()  # attached as it is (a game bundle is binary)
    text = raw.decode("utf-8", errors="replace")
    signature = read(sig) if sig else ""
    m = base(sender, "move " + file.rsplit("/", 1)[-1])
    if shape == "attach":
        m.set_content("My move is attached.\n")
        m.add_attachment(raw, maintype="application", subtype="octet-stream",
                         filename="../../etc/passwd")
        if sig:
            m.add_attachment(signature.encode(), maintype="application", subtype="octet-stream",
                             filename="/tmp/evil.sig")
        for extra in also:
            m.add_attachment(read(extra).encode(), maintype="application",
                             subtype="octet-stream", filename=extra.rsplit("/", 1)[-1])
    elif shape in ("inline", "reply"):
        body = "Hello,\n\nhere is my move:\n\n" + text + "\n" + signature + "\n"
        for extra in also:
            body += "\n" + read(extra) + "\n"
        if shape == "reply":
            body += "\nOn an earlier day you wrote:\n" + "".join(
                "> " + line + "\n" for line in (read(quoted) + read(sig)).splitlines())
        body += "-- \nformat = \"qijudge/move/1\" (a signature line, ignored)\n"
        m.set_content(body, cte="quoted-printable")
    elif shape == "html":
        m.set_content("<html><body><pre>" + text + signature + "</pre></body></html>",
                      subtype="html")
    elif shape == "conflict":
        m.set_content("two moves\n\n" + text + "\n" + signature + "\n\n" + read(quoted) + "\n"
                      + signature + "\n")
    elif shape == "nosig":
        m.set_content("no signature\n\n" + text + "\n")
    elif shape == "chat":
        m.set_content("Nice move! I need a day to think about mine.\n")
    elif shape == "vacation":
        # An out-of-office responder answering the judge, pasting what it answers (RFC 3834).
        m.replace_header("Subject", "Out of office")
        m["Auto-Submitted"] = "auto-replied"
        m.set_content("I am away until Monday.\n\n" + text + "\n" + signature + "\n")
    elif shape in ("thunderbird", "applemail"):
        delsp = shape == "applemail"
        m["User-Agent"] = ("Mozilla/5.0 Thunderbird/128.5.0" if not delsp
                           else "Apple Mail (2.3826.200.121)")
        body = flow("Hello,\n\nhere is my move, pasted:\n\n" + text + "\n" + signature
                    + "\nBest wishes\n", 76 if delsp else 72, delsp)
        # Thunderbird sends UTF-8 text as 8bit; Apple Mail as quoted-printable.
        m.set_content(body, cte="quoted-printable" if delsp else "8bit")
        m.set_param("format", "flowed")
        if delsp:
            m.set_param("delsp", "yes")
    elif shape in ("refold64", "refold76"):
        width = int(shape[-2:])
        m.set_content("My move:\n\n" + text + "\n" + refold(signature, width) + "\n")
    elif shape == "latin1":
        m.set_content("My move is attached.\n")
        part = MIMEBase("text", "plain", charset="iso-8859-1")
        part.set_payload(base64.encodebytes(text.encode("utf-8")).decode())
        part["Content-Transfer-Encoding"] = "base64"
        part.add_header("Content-Disposition", "attachment", filename="move.toml")
        m.make_mixed()
        m.attach(part)
        m.add_attachment(signature.encode(), maintype="application", subtype="octet-stream",
                         filename="move.toml.sig")
    elif shape == "forward":
        inner = base(sender, "my move")
        inner.set_content("My move is attached.\n")
        inner.add_attachment(text.encode(), maintype="application", subtype="octet-stream",
                             filename="move.toml")
        inner.add_attachment(signature.encode(), maintype="application",
                             subtype="octet-stream", filename="move.toml.sig")
        m.replace_header("Subject", "Fwd: my move")
        m["User-Agent"] = "Mozilla/5.0 Thunderbird/128.5.0"
        m.set_content("Forwarding my move as an attachment.\n")
        m.add_attachment(inner)
    elif shape == "outlook":
        m["X-Mailer"] = "Microsoft Outlook 16.0"
        m.set_content("Grüße aus Köln! Mein Zug:\n\n" + text + "\n" + signature
                      + "\nViel Glück — bis bald.\n", charset="windows-1252", cte="8bit")
    else:
        raise SystemExit("unknown shape " + shape)
    with open(out, "wb") as f:
        f.write(m.as_bytes(policy=policy.SMTP))


def make_mbox(out, emls):
    box = mailbox.mbox(out)
    for e in emls:
        with open(e, "rb") as f:
            box.add(mailbox.mboxMessage(f.read()))
    box.flush()
    box.close()


def attachments(eml, outdir, names):
    with open(eml, "rb") as f:
        m = BytesParser(policy=policy.default).parse(f)
    found = 0
    for part in m.iter_attachments():
        name = part.get_filename()
        if name in names:
            with open(outdir + "/" + name, "wb") as f:
                f.write(part.get_content() if isinstance(part.get_content(), bytes)
                        else part.get_content().encode())
            found += 1
    if found != len(names):
        raise SystemExit("missing attachments in " + eml)


def seven_bit(src, out):
    with open(src, "rb") as f:
        raw = f.read()
    # The message's own lines, re-encoded part by part, by the email package's reader.
    m = BytesParser(policy=policy.compat32).parsebytes(raw)
    changed = 0
    for part in m.walk():
        cte = (part.get("Content-Transfer-Encoding") or "").lower()
        if part.is_multipart() or cte not in ("quoted-printable", "base64"):
            continue
        data = part.get_payload(decode=True)
        if not data.isascii():
            continue
        text = data.decode("ascii").replace("\r\n", "\n")
        del part["Content-Transfer-Encoding"]
        part["Content-Transfer-Encoding"] = "7bit"
        part.set_payload(text)
        changed += 1
    if not changed:
        raise SystemExit("no part to re-encode in " + src)
    from email.generator import BytesGenerator
    import io
    buf = io.BytesIO()
    BytesGenerator(buf, mangle_from_=False, policy=policy.compat32.clone(linesep="\r\n")).flatten(m)
    with open(out, "wb") as f:
        f.write(buf.getvalue())


def retar(src, out, mode):
    import io
    import tarfile
    with tarfile.open(src) as t:
        members = [(m, t.extractfile(m).read()) for m in t.getmembers()]
    with tarfile.open(out, "w:gz", format=tarfile.USTAR_FORMAT) as o:
        for m, data in members:
            if mode == "move" and m.name.startswith("moves/") and m.name.endswith(".toml"):
                data = data.replace(b"ply = ", b"ply =  ", 1)
                mode = "done"
            if mode == "reveal" and m.name.startswith("reveal/"):
                # Another salt: still a setup file, but not the one committed to.
                at = data.index(b'salt = "') + len(b'salt = "')
                data = data[:at] + (b"0" if data[at:at + 1] != b"0" else b"1") + data[at + 1:]
                mode = "done"
            if mode == "manifest" and m.name == "game.toml":
                data = data.replace(b'id = "', b'id = "x', 1)
            m.size = len(data)
            o.addfile(m, io.BytesIO(data))
        if mode == "traverse":
            info = tarfile.TarInfo("../escaped")
            info.size = 3
            o.addfile(info, io.BytesIO(b"hi\n"))
        if mode == "symlink":
            info = tarfile.TarInfo("moves/link.toml")
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/passwd"
            o.addfile(info)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "make":
        args = [a for a in sys.argv[2:] if not a.startswith("--also=")]
        make(*args, also=[a[len("--also="):] for a in sys.argv[2:] if a.startswith("--also=")])
    elif cmd == "mbox":
        make_mbox(sys.argv[2], sys.argv[3:])
    elif cmd == "retar":
        retar(*sys.argv[2:])
    elif cmd == "seven-bit":
        seven_bit(*sys.argv[2:])
    elif cmd == "attachments":
        attachments(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        raise SystemExit(__doc__)
