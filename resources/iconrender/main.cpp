// sandbar-iconrender SVG OUTDIR SIZE...: renders the application icon to OUTDIR/SIZE.png for
// each size, so that the package carries the PNGs that icon themes without SVG support need.
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char **argv)
{
    // Rendering needs no display; the build machine may have none.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QTextStream err(stderr);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 4) {
        err << "usage: sandbar-iconrender SVG OUTDIR SIZE...\n";
        return 2;
    }
    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid()) {
        err << "sandbar-iconrender: cannot read " << args.at(1) << '\n';
        return 1;
    }
    const QDir out(args.at(2));
    if (!out.mkpath(QStringLiteral("."))) {
        err << "sandbar-iconrender: cannot create " << args.at(2) << '\n';
        return 1;
    }
    for (qsizetype i = 3; i < args.size(); ++i) {
        bool ok = false;
        const int size = args.at(i).toInt(&ok);
        if (!ok || size <= 0 || size > 4096) {
            err << "sandbar-iconrender: bad size " << args.at(i) << '\n';
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter, QRectF(0, 0, size, size));
        painter.end();
        const QString file = out.filePath(QString::number(size) + QStringLiteral(".png"));
        if (!image.save(file, "PNG")) {
            err << "sandbar-iconrender: cannot write " << file << '\n';
            return 1;
        }
    }
    return 0;
}
