#include <QAbstractItemModelTester>
#include <QTest>

#include "ui/live/notice_model.h"

using plumbline::ui::live::NoticeModel;

class NoticeModelTest : public QObject {
  Q_OBJECT
 private slots:
  void passesTheModelTesterThroughAddClearAndOverflow() {
    NoticeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.add(QStringLiteral("info"), QStringLiteral("started"));
    model.add(QStringLiteral("error"), QStringLiteral("worker 2 died"), 12.5);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("12.5 s  worker 2 died"));
    QCOMPARE(model.data(model.index(1, 0), NoticeModel::LevelRole).toString(), QStringLiteral("error"));
    QVERIFY(model.data(model.index(1, 0), Qt::ForegroundRole).isValid());
    QVERIFY(!model.data(model.index(0, 0), Qt::ForegroundRole).isValid());
    for (int i = 0; i < NoticeModel::kMaxNotices + 10; ++i) model.add(QStringLiteral("info"), QString::number(i));
    QCOMPARE(model.rowCount(), NoticeModel::kMaxNotices);
    QCOMPARE(model.data(model.index(NoticeModel::kMaxNotices - 1, 0)).toString(),
             QString::number(NoticeModel::kMaxNotices + 9));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }
};

QTEST_MAIN(NoticeModelTest)
#include "notice_model_test.moc"
