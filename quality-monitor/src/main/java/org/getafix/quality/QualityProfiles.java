package org.getafix.quality;

import org.apache.druid.query.Query;
import org.getafix.core.quality.AnswerQuality;
import org.getafix.core.quality.split.QualityProfile;
import org.getafix.core.quality.split.QualityProfileLearner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Quality profiles learned on the Broker from mature runs: per datasource and query type, what share of its segments
 * a budgeted query must complete for what answer quality (the budget paper's request quality function, §2). Each
 * measured mature run adds its online answer's coverage and quality. {@link QualityResource} shows them; they are the
 * input a budget split by quality (EqResv, MaxQuality) needs.
 */
public class QualityProfiles implements BudgetedQuery.Listener
{
  private final QualityProfileLearner learner = new QualityProfileLearner();

  /** A query's class: its datasources and its type, e.g. {@code wikipedia/topN}. */
  static String queryClass(Query<?> query)
  {
    return String.join(",", query.getDataSource().getTableNames()) + "/" + query.getType();
  }

  @Override
  public void onQualityMeasured(BudgetedQuery<?> query, AnswerQuality quality)
  {
    learner.record(queryClass(query.query()), query.coverage().fraction(), quality.quality());
  }

  /** The profile of {@code queryClass}: linear until enough mature runs shaped it. */
  QualityProfile profile(String queryClass)
  {
    return learner.profile(queryClass);
  }

  /** Per query class, the learned profile's knots: completed fractions and the qualities there. */
  Map<String, Object> state()
  {
    final Map<String, Object> state = new LinkedHashMap<>();
    for (String queryClass : new TreeSet<>(learner.queryClasses())) {
      final QualityProfile profile = learner.profile(queryClass);
      state.put(queryClass, Map.of("fractions", profile.fractions(), "qualities", profile.qualities()));
    }
    return state;
  }
}
